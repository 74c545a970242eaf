package io.basalt.storage.schema;

import io.basalt.storage.cell.Bytes;

/** A region's rows: {@code [start, end)}, an empty array meaning unbounded on that side. */
public record KeyRange(byte[] start, byte[] end) {
  public static final KeyRange ALL = new KeyRange(Bytes.EMPTY, Bytes.EMPTY);

  public KeyRange {
    start = start == null ? Bytes.EMPTY : start;
    end = end == null ? Bytes.EMPTY : end;
    if (end.length > 0 && Bytes.compare(start, end) >= 0) {
      throw new IllegalArgumentException("empty key range [" + Bytes.toStringBinary(start) + ", "
          + Bytes.toStringBinary(end) + ")");
    }
  }

  public boolean contains(byte[] row) {
    return Bytes.compare(row, start) >= 0 && (end.length == 0 || Bytes.compare(row, end) < 0);
  }

  public boolean isAll() {
    return start.length == 0 && end.length == 0;
  }

  public boolean encloses(KeyRange other) {
    return Bytes.compare(other.start, start) >= 0
        && (end.length == 0 || (other.end.length > 0 && Bytes.compare(other.end, end) <= 0));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r && Bytes.compare(start, r.start) == 0 && Bytes.compare(end, r.end) == 0;
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(start) * 31 + java.util.Arrays.hashCode(end);
  }

  @Override
  public String toString() {
    return "[" + Bytes.toStringBinary(start) + ", " + (end.length == 0 ? "+inf" : Bytes.toStringBinary(end)) + ")";
  }
}
