package io.basalt.server.convert;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.util.ClassSize;

/**
 * A stored cell as HBase's {@link Cell}, over the storage cell's own arrays. Reads answer with these rather than
 * {@code KeyValue} copies: the cell block encoder and the protobuf converter read cells through the getters only,
 * so the copy into one KeyValue array per cell (a scan of YCSB E's rows makes a thousand per call) was pure
 * allocation. Read-only, like the storage cell it shows.
 */
final class ResponseCell implements Cell {
  /** Object header, five references (compressed) and the storage cell's share: an estimate, as KeyValue's is. */
  private static final long FIXED_HEAP = ClassSize.align(ClassSize.OBJECT + ClassSize.REFERENCE)
      + ClassSize.align(ClassSize.OBJECT + 4 * ClassSize.REFERENCE + 8);

  private final io.basalt.storage.cell.Cell cell;

  ResponseCell(io.basalt.storage.cell.Cell cell) {
    this.cell = cell;
  }

  @Override
  public byte[] getRowArray() {
    return cell.row();
  }

  @Override
  public int getRowOffset() {
    return 0;
  }

  @Override
  public short getRowLength() {
    return (short) cell.row().length;
  }

  @Override
  public byte[] getFamilyArray() {
    return cell.family();
  }

  @Override
  public int getFamilyOffset() {
    return 0;
  }

  @Override
  public byte getFamilyLength() {
    return (byte) cell.family().length;
  }

  @Override
  public byte[] getQualifierArray() {
    return cell.qualifier();
  }

  @Override
  public int getQualifierOffset() {
    return 0;
  }

  @Override
  public int getQualifierLength() {
    return cell.qualifier().length;
  }

  @Override
  public long getTimestamp() {
    return cell.timestamp();
  }

  @Override
  public byte getTypeByte() {
    return (byte) cell.type().code();
  }

  @Override
  public long getSequenceId() {
    return 0;
  }

  @Override
  public byte[] getValueArray() {
    return cell.valueArray();
  }

  @Override
  public int getValueOffset() {
    return cell.valueOffset();
  }

  @Override
  public int getValueLength() {
    return cell.valueLength();
  }

  /** As a KeyValue without tags: lengths (4 + 4), key, value. */
  @Override
  public int getSerializedSize() {
    return 8 + 2 + getRowLength() + 1 + getFamilyLength() + getQualifierLength() + 8 + 1 + getValueLength();
  }

  @Override
  public byte[] getTagsArray() {
    return HConstants.EMPTY_BYTE_ARRAY;
  }

  @Override
  public int getTagsOffset() {
    return 0;
  }

  @Override
  public int getTagsLength() {
    return 0;
  }

  @Override
  public long heapSize() {
    return FIXED_HEAP + ClassSize.align(ClassSize.ARRAY + cell.row().length)
        + ClassSize.align(ClassSize.ARRAY + cell.qualifier().length) + ClassSize.align(ClassSize.ARRAY + cell.valueLength());
  }

  @Override
  public String toString() {
    return CellUtil.getCellKeyAsString(this) + "/vlen=" + getValueLength();
  }
}
