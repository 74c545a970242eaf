package io.basalt.server.catalog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.exceptions.DeserializationException;

/**
 * A completed snapshot: the table as it was (its descriptor, its regions) and, for each region, the one server
 * whose disk holds the region's linked log ({@code DATA/snapshots/NAME/ENCODED}). A snapshot is on one server's
 * disk per region: losing that disk loses the snapshot's region; {@code basalt snapshot export} is the backup.
 * <pre>
 * version 2: byte 2 | UTF name | int64 creation time (ms) | int32 len | table descriptor (PBUF)
 *            | int32 parts | (int32 len | RegionInfo PBUF | UTF server)* | UTF owner | int32 CRC32C of all before
 * version 1: the same without the owner (read as "")
 * </pre>
 * The owner is the short name of the user who took it while authorisation was on ("" otherwise), as HBase's
 * SnapshotDescription.owner: it may list, delete, restore and clone its snapshot (acl.SnapshotRules).
 */
public record SnapshotRecord(String name, TableDescriptor table, long creationTime, List<Part> parts, String owner) {
  private static final int VERSION = 2;

  /** One region of the snapshot and the server holding its files. */
  public record Part(RegionInfo region, ServerName server) {}

  public SnapshotRecord {
    parts = List.copyOf(parts);
    owner = owner == null ? "" : owner;
  }

  /** A snapshot without an owner (taken with authorisation off). */
  public SnapshotRecord(String name, TableDescriptor table, long creationTime, List<Part> parts) {
    this(name, table, creationTime, parts, "");
  }

  public SnapshotRecord withOwner(String who) {
    return new SnapshotRecord(name, table, creationTime, parts, who);
  }

  public byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(VERSION);
      out.writeUTF(name);
      out.writeLong(creationTime);
      byte[] t = TableDescriptorBuilder.toByteArray(table);
      out.writeInt(t.length);
      out.write(t);
      out.writeInt(parts.size());
      for (Part p : parts) {
        byte[] r = RegionInfo.toByteArray(p.region());
        out.writeInt(r.length);
        out.write(r);
        out.writeUTF(p.server().getServerName());
      }
      out.writeUTF(owner);
      out.flush();
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeInt((int) crc.getValue());
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory failed", e);
    }
  }

  public static SnapshotRecord decode(byte[] data) throws IOException {
    if (data.length < 5) {
      throw new IOException("truncated snapshot record (" + data.length + " bytes)");
    }
    CRC32C crc = new CRC32C();
    crc.update(data, 0, data.length - 4);
    if ((int) crc.getValue() != ByteBuffer.wrap(data, data.length - 4, 4).getInt()) {
      throw new IOException("corrupt snapshot record: checksum mismatch");
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(data, 0, data.length - 4));
    int version = in.readUnsignedByte();
    if (version != VERSION && version != 1) {
      throw new IOException("snapshot record of unknown version " + version + ": written by a newer Basalt?");
    }
    try {
      String name = in.readUTF();
      long created = in.readLong();
      TableDescriptor table = TableDescriptorBuilder.parseFrom(field(in));
      int n = in.readInt();
      if (n < 0 || n > 1_000_000) {
        throw new IOException("corrupt snapshot record: " + n + " regions");
      }
      List<Part> parts = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        RegionInfo region = RegionInfo.parseFrom(field(in));
        parts.add(new Part(region, ServerName.valueOf(in.readUTF())));
      }
      String owner = version >= 2 ? in.readUTF() : "";
      if (in.available() > 0) {
        throw new IOException("corrupt snapshot record: bytes after the last field");
      }
      return new SnapshotRecord(name, table, created, parts, owner);
    } catch (DeserializationException | IllegalArgumentException e) {
      throw new IOException("corrupt snapshot record: " + e.getMessage(), e);
    }
  }

  private static byte[] field(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > in.available()) {
      throw new IOException("corrupt snapshot record: field of " + n + " bytes");
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }
}
