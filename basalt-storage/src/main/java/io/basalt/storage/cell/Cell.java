package io.basalt.storage.cell;

import java.util.Arrays;
import java.util.Objects;

/**
 * One version of one column of one row: HBase's unit of data. Immutable by convention; the arrays are
 * not copied, callers must not modify them after handing them over.
 */
public final class Cell {
  private final byte[] row;
  private final byte[] family;
  private final byte[] qualifier;
  private final long timestamp;
  private final CellType type;
  private final byte[] value;
  private final int valueOffset;
  private final int valueLength;

  public Cell(byte[] row, byte[] family, byte[] qualifier, long timestamp, CellType type, byte[] value) {
    this(row, family, qualifier, timestamp, type, value == null ? Bytes.EMPTY : value, 0,
        value == null ? 0 : value.length);
  }

  /**
   * A cell whose value is {@code length} bytes of {@code valueArray} from {@code offset}: a request's cell keeps
   * its value where the request decoded it, and the write hands that slice to JE, which copies it once.
   */
  public Cell(byte[] row, byte[] family, byte[] qualifier, long timestamp, CellType type, byte[] valueArray,
      int offset, int length) {
    this.row = Objects.requireNonNull(row, "row");
    this.family = Objects.requireNonNull(family, "family");
    this.qualifier = qualifier == null ? Bytes.EMPTY : qualifier;
    this.timestamp = timestamp;
    this.type = Objects.requireNonNull(type, "type");
    Objects.checkFromIndexSize(offset, length, valueArray.length);
    this.value = valueArray;
    this.valueOffset = offset;
    this.valueLength = length;
  }

  public static Cell put(byte[] row, byte[] family, byte[] qualifier, long ts, byte[] value) {
    return new Cell(row, family, qualifier, ts, CellType.PUT, value);
  }

  public byte[] row() {
    return row;
  }

  public byte[] family() {
    return family;
  }

  public byte[] qualifier() {
    return qualifier;
  }

  public long timestamp() {
    return timestamp;
  }

  public CellType type() {
    return type;
  }

  /** The value as an array of its own length (a copy only for a cell made from a slice, see {@link #valueArray}). */
  public byte[] value() {
    return valueOffset == 0 && valueLength == value.length ? value : Arrays.copyOfRange(value, valueOffset,
        valueOffset + valueLength);
  }

  /** The array the value is in, from {@link #valueOffset} for {@link #valueLength} bytes; not to be modified. */
  public byte[] valueArray() {
    return value;
  }

  public int valueOffset() {
    return valueOffset;
  }

  public int valueLength() {
    return valueLength;
  }

  public Cell withTimestamp(long ts) {
    return new Cell(row, family, qualifier, ts, type, value, valueOffset, valueLength);
  }

  public Cell withValue(byte[] v) {
    return new Cell(row, family, qualifier, timestamp, type, v);
  }

  /** Approximate heap/wire size, for result-size limits. */
  public long estimatedSize() {
    return row.length + family.length + qualifier.length + valueLength + 13L;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Cell)) {
      return false;
    }
    Cell c = (Cell) o;
    return timestamp == c.timestamp
        && type == c.type
        && Arrays.equals(row, c.row)
        && Arrays.equals(family, c.family)
        && Arrays.equals(qualifier, c.qualifier)
        && Arrays.equals(value, valueOffset, valueOffset + valueLength, c.value, c.valueOffset,
            c.valueOffset + c.valueLength);
  }

  @Override
  public int hashCode() {
    int h = Arrays.hashCode(row);
    h = 31 * h + Arrays.hashCode(family);
    h = 31 * h + Arrays.hashCode(qualifier);
    h = 31 * h + Long.hashCode(timestamp);
    h = 31 * h + type.hashCode();
    int v = 1; // Arrays.hashCode(value()) without the copy
    for (int i = valueOffset; i < valueOffset + valueLength; i++) {
      v = 31 * v + value[i];
    }
    return 31 * h + v;
  }

  @Override
  public String toString() {
    return Bytes.toStringBinary(row) + "/" + Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier)
        + "/" + timestamp + "/" + type + "=" + Bytes.toStringBinary(value());
  }
}
