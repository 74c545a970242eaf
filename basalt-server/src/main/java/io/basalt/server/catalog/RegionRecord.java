package io.basalt.server.catalog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.exceptions.DeserializationException;

/**
 * One region in the RegionMap: its identity, where it is served (null while unassigned) and its state.
 * Stored as {@code int len | RegionInfo bytes (PBUF) | UTF server ("" if none) | UTF state}.
 */
public record RegionRecord(RegionInfo info, ServerName server, String state) {
  public static final String OPEN = "OPEN";
  public static final String CLOSED = "CLOSED";

  byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      byte[] ri = RegionInfo.toByteArray(info);
      out.writeInt(ri.length);
      out.write(ri);
      out.writeUTF(server == null ? "" : server.getServerName());
      out.writeUTF(state);
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static RegionRecord decode(byte[] data) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
    byte[] ri = new byte[in.readInt()];
    in.readFully(ri);
    String server = in.readUTF();
    String state = in.readUTF();
    try {
      return new RegionRecord(RegionInfo.parseFrom(ri), server.isEmpty() ? null : ServerName.valueOf(server), state);
    } catch (DeserializationException e) {
      throw new IOException("corrupt region record", e);
    }
  }
}
