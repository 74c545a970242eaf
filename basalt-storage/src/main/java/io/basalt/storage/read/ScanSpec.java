package io.basalt.storage.read;

import io.basalt.storage.cell.Bytes;

/**
 * A scan: row bounds (each inclusive or exclusive; an empty row means unbounded), direction, a row limit
 * (0 = none), and {@code batch}, the most cells per result (0 = whole rows; larger rows come back in
 * several partial results).
 */
public record ScanSpec(byte[] startRow, boolean startInclusive, byte[] stopRow, boolean stopInclusive,
    boolean reversed, ReadOptions read, int limit, int batch) {
  public ScanSpec {
    startRow = startRow == null ? Bytes.EMPTY : startRow;
    stopRow = stopRow == null ? Bytes.EMPTY : stopRow;
    read = read == null ? ReadOptions.DEFAULT : read;
    if (limit < 0 || batch < 0) {
      throw new IllegalArgumentException("negative limit or batch");
    }
  }

  public static ScanSpec all() {
    return new ScanSpec(Bytes.EMPTY, true, Bytes.EMPTY, false, false, ReadOptions.DEFAULT, 0, 0);
  }

  public static ScanSpec range(byte[] start, byte[] stop) {
    return new ScanSpec(start, true, stop, false, false, ReadOptions.DEFAULT, 0, 0);
  }

  public ScanSpec withStart(byte[] row, boolean inclusive) {
    return new ScanSpec(row, inclusive, stopRow, stopInclusive, reversed, read, limit, batch);
  }

  public ScanSpec withStop(byte[] row, boolean inclusive) {
    return new ScanSpec(startRow, startInclusive, row, inclusive, reversed, read, limit, batch);
  }

  public ScanSpec reversed(boolean r) {
    return new ScanSpec(startRow, startInclusive, stopRow, stopInclusive, r, read, limit, batch);
  }

  public ScanSpec withRead(ReadOptions r) {
    return new ScanSpec(startRow, startInclusive, stopRow, stopInclusive, reversed, r, limit, batch);
  }

  public ScanSpec withLimit(int l) {
    return new ScanSpec(startRow, startInclusive, stopRow, stopInclusive, reversed, read, l, batch);
  }

  public ScanSpec withBatch(int b) {
    return new ScanSpec(startRow, startInclusive, stopRow, stopInclusive, reversed, read, limit, b);
  }
}
