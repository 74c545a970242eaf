package io.basalt.server.control;

import io.basalt.server.catalog.Member;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.exceptions.DeserializationException;

/**
 * Arguments and results of control calls: a flat sequence of fields, each {@code int32 length | bytes}
 * (length -1 for null). RegionInfo and TableDescriptor use HBase's own PBUF serialisations, server names
 * their {@code host,port,startcode} string, so the format never drifts from the client's.
 */
public final class ControlCodec {
  private ControlCodec() {}

  /** Builds a payload field by field. */
  public static final class Writer {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    private final DataOutputStream out = new DataOutputStream(bytes);

    public Writer bytes(byte[] b) {
      try {
        if (b == null) {
          out.writeInt(-1);
        } else {
          out.writeInt(b.length);
          out.write(b);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return this;
    }

    public Writer string(String s) {
      return bytes(s == null ? null : s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public Writer number(long n) {
      return string(Long.toString(n));
    }

    public Writer region(RegionInfo r) {
      return bytes(r == null ? null : RegionInfo.toByteArray(r));
    }

    public Writer table(TableDescriptor t) {
      return bytes(TableDescriptorBuilder.toByteArray(t));
    }

    public Writer server(ServerName s) {
      return string(s == null ? null : s.getServerName());
    }

    public Writer regions(List<RegionInfo> rs) {
      number(rs.size());
      rs.forEach(this::region);
      return this;
    }

    public Writer moveSource(MoveSource m) {
      string(m.transferAddress().getHostString());
      number(m.transferAddress().getPort());
      return bytes(m.manifest());
    }

    public Writer strings(List<String> ss) {
      number(ss.size());
      ss.forEach(this::string);
      return this;
    }

    public Writer members(List<Member> ms) {
      number(ms.size());
      for (Member m : ms) {
        server(m.server());
        number(m.port());
      }
      return this;
    }

    public Writer numbers(Collection<Integer> ns) {
      number(ns.size());
      ns.forEach(this::number);
      return this;
    }

    public byte[] toBytes() {
      return bytes.toByteArray();
    }
  }

  /** Reads a payload in the order it was written; malformed input is an IOException, never a crash. */
  public static final class Reader {
    private final DataInputStream in;

    public Reader(byte[] payload) {
      in = new DataInputStream(new ByteArrayInputStream(payload));
    }

    public byte[] bytes() throws IOException {
      int n = in.readInt();
      if (n == -1) {
        return null;
      }
      if (n < 0 || n > in.available()) {
        throw new IOException("malformed control payload: field of " + n + " bytes");
      }
      byte[] b = new byte[n];
      in.readFully(b);
      return b;
    }

    public String string() throws IOException {
      byte[] b = bytes();
      return b == null ? null : new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    public long number() throws IOException {
      try {
        return Long.parseLong(string());
      } catch (NumberFormatException e) {
        throw new IOException("malformed control payload: " + e.getMessage());
      }
    }

    public RegionInfo region() throws IOException {
      byte[] b = bytes();
      try {
        return b == null ? null : RegionInfo.parseFrom(b);
      } catch (DeserializationException e) {
        throw new IOException("malformed region info", e);
      }
    }

    public TableDescriptor table() throws IOException {
      try {
        return TableDescriptorBuilder.parseFrom(bytes());
      } catch (DeserializationException e) {
        throw new IOException("malformed table descriptor", e);
      }
    }

    public ServerName server() throws IOException {
      String s = string();
      return s == null ? null : ServerName.valueOf(s);
    }

    public List<RegionInfo> regions() throws IOException {
      long n = number();
      List<RegionInfo> out = new ArrayList<>();
      for (long i = 0; i < n; i++) {
        out.add(region());
      }
      return out;
    }

    public MoveSource moveSource() throws IOException {
      String host = string();
      int port = (int) number();
      return new MoveSource(new java.net.InetSocketAddress(host, port), bytes());
    }

    public List<Member> members() throws IOException {
      long n = count();
      List<Member> out = new ArrayList<>();
      for (long i = 0; i < n; i++) {
        ServerName server = server();
        long port = number();
        try {
          out.add(new Member(server, (int) port));
        } catch (IllegalArgumentException e) {
          throw new IOException("malformed member: " + e.getMessage());
        }
      }
      return out;
    }

    public Set<Integer> numbers() throws IOException {
      long n = count();
      Set<Integer> out = new HashSet<>();
      for (long i = 0; i < n; i++) {
        out.add((int) number());
      }
      return out;
    }

    /** A list's length, refused when the payload cannot hold that many fields. */
    private long count() throws IOException {
      long n = number();
      if (n < 0 || n > in.available() / 4) {
        throw new IOException("malformed control payload: list of " + n);
      }
      return n;
    }

    public List<String> strings() throws IOException {
      long n = number();
      List<String> out = new ArrayList<>();
      for (long i = 0; i < n; i++) {
        out.add(string());
      }
      return out;
    }
  }
}
