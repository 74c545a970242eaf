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

  public Cell(byte[] row, byte[] family, byte[] qualifier, long timestamp, CellType type, byte[] value) {
    this.row = Objects.requireNonNull(row, "row");
    this.family = Objects.requireNonNull(family, "family");
    this.qualifier = qualifier == null ? Bytes.EMPTY : qualifier;
    this.timestamp = timestamp;
    this.type = Objects.requireNonNull(type, "type");
    this.value = value == null ? Bytes.EMPTY : value;
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

  public byte[] value() {
    return value;
  }

  public Cell withTimestamp(long ts) {
    return new Cell(row, family, qualifier, ts, type, value);
  }

  public Cell withValue(byte[] v) {
    return new Cell(row, family, qualifier, timestamp, type, v);
  }

  /** Approximate heap/wire size, for result-size limits. */
  public long estimatedSize() {
    return row.length + family.length + qualifier.length + value.length + 13L;
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
        && Arrays.equals(value, c.value);
  }

  @Override
  public int hashCode() {
    int h = Arrays.hashCode(row);
    h = 31 * h + Arrays.hashCode(family);
    h = 31 * h + Arrays.hashCode(qualifier);
    h = 31 * h + Long.hashCode(timestamp);
    h = 31 * h + type.hashCode();
    return 31 * h + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return Bytes.toStringBinary(row) + "/" + Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier)
        + "/" + timestamp + "/" + type + "=" + Bytes.toStringBinary(value);
  }
}
