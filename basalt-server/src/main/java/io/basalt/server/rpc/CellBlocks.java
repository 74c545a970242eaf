package io.basalt.server.rpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.KeyValue;

/**
 * HBase's {@code KeyValueCodec} cell block: cells back to back, each
 * <pre>
 * int32 kvLen | int32 keyLen | int32 valLen | int16 rowLen | row | int8 famLen | family | qualifier
 *             | int64 timestamp | int8 type | value
 * </pre>
 * with kvLen = 8 + keyLen + valLen and keyLen = 2 + rowLen + 1 + famLen + qualLen + 8 + 1. No tags.
 */
public final class CellBlocks {
  public static final String KEY_VALUE_CODEC = "org.apache.hadoop.hbase.codec.KeyValueCodec";

  private CellBlocks() {}

  public static List<Cell> decode(byte[] block, int offset, int length) throws IOException {
    List<Cell> cells = new ArrayList<>();
    ByteBuffer buf = ByteBuffer.wrap(block, offset, length);
    while (buf.hasRemaining()) {
      if (buf.remaining() < 4) {
        throw new DoNotRetryIOException("truncated cell block");
      }
      int kvLen = buf.getInt();
      if (kvLen < 12 || kvLen > buf.remaining()) {
        throw new DoNotRetryIOException("bad cell length " + kvLen + " in cell block");
      }
      int start = buf.position();
      cells.add(new KeyValue(block, start, kvLen));
      buf.position(start + kvLen);
    }
    return cells;
  }

  /** Bytes {@link #encode} will write for these cells. */
  public static int encodedLength(List<? extends Cell> cells) {
    int n = 0;
    for (Cell c : cells) {
      n += 4 + 8 + keyLength(c) + c.getValueLength();
    }
    return n;
  }

  public static void encode(List<? extends Cell> cells, ByteBuffer out) {
    for (Cell c : cells) {
      int keyLen = keyLength(c);
      int valLen = c.getValueLength();
      out.putInt(8 + keyLen + valLen);
      out.putInt(keyLen);
      out.putInt(valLen);
      out.putShort(c.getRowLength());
      out.put(c.getRowArray(), c.getRowOffset(), c.getRowLength());
      out.put(c.getFamilyLength());
      out.put(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength());
      out.put(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength());
      out.putLong(c.getTimestamp());
      out.put(c.getType().getCode());
      out.put(c.getValueArray(), c.getValueOffset(), valLen);
    }
  }

  private static int keyLength(Cell c) {
    return 2 + c.getRowLength() + 1 + c.getFamilyLength() + c.getQualifierLength() + 8 + 1;
  }
}
