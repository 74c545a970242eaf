package io.basalt.server.master.protocol;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import io.basalt.server.catalog.Member;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.exceptions.DeserializationException;

/**
 * The field encoding shared by {@link SplitTxn}, {@link GroupSplitTxn}, {@link MoveTxn} and {@link MemberTxn}:
 * <pre>
 *   byte    kind ('S' split, 'G' split of a replica group, 'M' move, 'R' replica group member change,
 *           'J' merge, 'K' merge of replica groups, 'P' snapshot, 'C' snapshot clone)
 *   byte    version
 *   ...     fields; a field of bytes is varint length | bytes; strings are UTF-8; a RegionInfo is
 *           RegionInfo.toByteArray (HBase's PBUF form); a ServerName its "host,port,startcode" string;
 *           members are varint count | (server | varint port)*
 *   int32   CRC32C of all the bytes before it, big-endian
 * </pre>
 * Varints are unsigned LEB128.
 */
final class TxnCodec {
  private TxnCodec() {}

  static final class Writer {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

    Writer(byte kind, byte version) {
      out.write(kind);
      out.write(version);
    }

    Writer raw(int b) {
      out.write(b);
      return this;
    }

    Writer varint(long v) {
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
      return this;
    }

    Writer bytes(byte[] b) {
      varint(b.length);
      out.write(b, 0, b.length);
      return this;
    }

    Writer string(String s) {
      return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    Writer region(RegionInfo r) {
      return bytes(RegionInfo.toByteArray(r));
    }

    Writer server(ServerName s) {
      return string(s.getServerName());
    }

    Writer members(List<Member> members) {
      varint(members.size());
      for (Member m : members) {
        server(m.server()).varint(m.port());
      }
      return this;
    }

    byte[] toBytes() {
      CRC32C crc = new CRC32C();
      byte[] body = out.toByteArray();
      crc.update(body);
      return ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
    }
  }

  static final class Reader {
    private final ByteBuffer in;
    private final String what;

    /** Checks the checksum, the kind and the version before any field is read. */
    Reader(byte[] data, byte kind, byte version, String what) throws IOException {
      this.what = what;
      if (data.length < 6) {
        throw new IOException("truncated " + what + " record (" + data.length + " bytes)");
      }
      CRC32C crc = new CRC32C();
      crc.update(data, 0, data.length - 4);
      if ((int) crc.getValue() != ByteBuffer.wrap(data, data.length - 4, 4).getInt()) {
        throw new IOException("corrupt " + what + " record: checksum mismatch");
      }
      if (data[0] != kind) {
        throw new IOException("not a " + what + " record (kind " + data[0] + ")");
      }
      if (data[1] != version) {
        throw new IOException(what + " record of unknown version " + data[1] + ": written by a newer Basalt?");
      }
      this.in = ByteBuffer.wrap(data, 2, data.length - 6);
    }

    int raw() throws IOException {
      need(1);
      return in.get() & 0xFF;
    }

    /** A one-byte phase: the constant of {@code phases} whose {@code code} it is. */
    <P extends Enum<P>> P phase(P[] phases, java.util.function.ToIntFunction<P> code) throws IOException {
      int c = raw();
      for (P p : phases) {
        if (code.applyAsInt(p) == c) {
          return p;
        }
      }
      throw new IOException(what + " record in unknown phase " + c);
    }

    long varint() throws IOException {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = raw();
        v |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new IOException("corrupt " + what + " record: varint too long");
    }

    byte[] bytes() throws IOException {
      long n = varint();
      if (n < 0 || n > in.remaining()) {
        throw new IOException("corrupt " + what + " record: field of " + n + " bytes, " + in.remaining() + " left");
      }
      byte[] b = new byte[(int) n];
      in.get(b);
      return b;
    }

    String string() throws IOException {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    RegionInfo region() throws IOException {
      try {
        return RegionInfo.parseFrom(bytes());
      } catch (DeserializationException e) {
        throw new IOException("corrupt " + what + " record: bad region", e);
      }
    }

    ServerName server() throws IOException {
      try {
        return ServerName.valueOf(string());
      } catch (IllegalArgumentException e) {
        throw new IOException("corrupt " + what + " record: bad server name", e);
      }
    }

    List<Member> members() throws IOException {
      long n = varint();
      if (n < 0 || n > 64) {
        throw new IOException("corrupt " + what + " record: " + n + " members");
      }
      List<Member> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ServerName server = server();
        long port = varint();
        try {
          out.add(new Member(server, (int) port));
        } catch (IllegalArgumentException e) {
          throw new IOException("corrupt " + what + " record: " + e.getMessage(), e);
        }
      }
      return out;
    }

    void end() throws IOException {
      if (in.hasRemaining()) {
        throw new IOException("corrupt " + what + " record: " + in.remaining() + " bytes after the last field");
      }
    }

    private void need(int n) throws IOException {
      if (in.remaining() < n) {
        throw new IOException("truncated " + what + " record");
      }
    }
  }
}
