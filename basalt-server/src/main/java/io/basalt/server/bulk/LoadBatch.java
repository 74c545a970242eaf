package io.basalt.server.bulk;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.RowMutation;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The body of a bulk load call: rows of puts for one region, sorted, in a compact binary form that the
 * tool writes and the region server reads (no HBase objects per cell on either side).
 *
 * <pre>
 * "BL" version:1 crc32c:4 (of what follows)
 * families: varint n, n × (varint len, bytes)
 * rows: varint n, n × (varint len, row, varint cells, cells × (varint family#, varint len, qualifier,
 *                                                              ts:8, varint len, value))
 * </pre>
 * Versioned and checksummed: a server never writes a batch it cannot read exactly as sent.
 */
public final class LoadBatch {
  static final byte VERSION = 1;
  private static final byte[] MAGIC = "BL".getBytes(StandardCharsets.US_ASCII);
  private static final int HEADER = MAGIC.length + 1 + 4;

  private LoadBatch() {}

  /** Encodes {@code rows}, whose cells all name one of {@code families}. */
  public static byte[] encode(List<byte[]> families, List<RowMutation> rows) {
    Out out = new Out(1024 + rows.size() * 64);
    out.write(MAGIC, 0, MAGIC.length);
    out.write(VERSION);
    out.write(new byte[4], 0, 4); // checksum, filled below
    out.varint(families.size());
    for (byte[] f : families) {
      out.bytes(f);
    }
    out.varint(rows.size());
    for (RowMutation m : rows) {
      out.bytes(m.row());
      out.varint(m.cells().size());
      for (Cell c : m.cells()) {
        out.varint(indexOf(families, c.family()));
        out.bytes(c.qualifier());
        out.fixed64(c.timestamp());
        out.bytes(c.value());
      }
    }
    byte[] body = out.toByteArray();
    CRC32C crc = new CRC32C();
    crc.update(body, HEADER, body.length - HEADER);
    ByteBuffer.wrap(body, MAGIC.length + 1, 4).putInt((int) crc.getValue());
    return body;
  }

  /** The rows of an encoded batch; IllegalArgumentException if it is not one this version wrote intact. */
  public static List<RowMutation> decode(byte[] body) {
    if (body.length < HEADER || body[0] != MAGIC[0] || body[1] != MAGIC[1]) {
      throw new IllegalArgumentException("not a bulk load batch");
    }
    if (body[2] != VERSION) {
      throw new IllegalArgumentException("bulk load batch version " + body[2] + ", this server reads " + VERSION
          + ": use the basalt import of this release");
    }
    CRC32C crc = new CRC32C();
    crc.update(body, HEADER, body.length - HEADER);
    if (ByteBuffer.wrap(body, MAGIC.length + 1, 4).getInt() != (int) crc.getValue()) {
      throw new IllegalArgumentException("bulk load batch checksum mismatch: damaged in transit");
    }
    ByteBuffer in = ByteBuffer.wrap(body, HEADER, body.length - HEADER);
    try {
      byte[][] families = new byte[varint(in)][];
      for (int i = 0; i < families.length; i++) {
        families[i] = bytes(in);
      }
      int rowCount = varint(in);
      List<RowMutation> rows = new ArrayList<>(Math.min(rowCount, body.length));
      for (int r = 0; r < rowCount; r++) {
        RowMutation.Builder row = RowMutation.of(bytes(in));
        int cells = varint(in);
        for (int c = 0; c < cells; c++) {
          byte[] family = families[varint(in)];
          byte[] qualifier = bytes(in);
          long ts = in.getLong();
          row.put(family, qualifier, ts, bytes(in));
        }
        rows.add(row.build());
      }
      if (in.hasRemaining()) {
        throw new IllegalArgumentException(in.remaining() + " bytes after the last row");
      }
      return rows;
    } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException | NegativeArraySizeException e) {
      throw new IllegalArgumentException("malformed bulk load batch: " + e, e);
    }
  }

  private static int indexOf(List<byte[]> families, byte[] family) {
    for (int i = 0; i < families.size(); i++) {
      if (Arrays.equals(families.get(i), family)) {
        return i;
      }
    }
    throw new IllegalArgumentException("family " + new String(family, StandardCharsets.UTF_8) + " not declared");
  }

  private static int varint(ByteBuffer in) {
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      byte b = in.get();
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        if (v < 0) {
          throw new IllegalArgumentException("negative length");
        }
        return v;
      }
    }
    throw new IllegalArgumentException("varint too long");
  }

  private static byte[] bytes(ByteBuffer in) {
    byte[] b = new byte[varint(in)];
    in.get(b);
    return b;
  }

  /** A growable buffer with the encodings above. */
  private static final class Out extends ByteArrayOutputStream {
    Out(int size) {
      super(size);
    }

    void varint(int v) {
      while ((v & ~0x7F) != 0) {
        write((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      write(v);
    }

    void bytes(byte[] b) {
      varint(b.length);
      write(b, 0, b.length);
    }

    void fixed64(long v) {
      for (int s = 56; s >= 0; s -= 8) {
        write((int) (v >>> s));
      }
    }
  }
}
