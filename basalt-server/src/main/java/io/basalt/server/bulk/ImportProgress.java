package io.basalt.server.bulk;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of a running import, updated by the reader (lines, input bytes, bad lines) and by the batches'
 * completions (rows, cells and bytes the regions acknowledged), and the one-line report printed while it runs.
 */
public final class ImportProgress {
  final LongAdder lines = new LongAdder();
  final LongAdder inputBytes = new LongAdder();
  final LongAdder badLines = new LongAdder();
  final LongAdder rowsLoaded = new LongAdder();
  final LongAdder cellsLoaded = new LongAdder();
  final LongAdder bytesLoaded = new LongAdder();
  private final long startNanos = System.nanoTime();
  private long lastNanos = startNanos;
  private long lastRows;
  private long lastBytes;

  public long lines() {
    return lines.sum();
  }

  public long inputBytes() {
    return inputBytes.sum();
  }

  public long badLines() {
    return badLines.sum();
  }

  /** Rows the regions acknowledged: stored, durable as a SYNC_WAL put. */
  public long rowsLoaded() {
    return rowsLoaded.sum();
  }

  public long cellsLoaded() {
    return cellsLoaded.sum();
  }

  /** Batch bytes the regions acknowledged (keys and values as sent; about the input's size). */
  public long bytesLoaded() {
    return bytesLoaded.sum();
  }

  public double elapsedSeconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** The progress line: totals, and rates since the previous line (the first: since the start). */
  public synchronized String line() {
    long now = System.nanoTime();
    long rows = rowsLoaded();
    long bytes = bytesLoaded();
    double interval = Math.max(1e-9, (now - lastNanos) / 1e9);
    String out = String.format("%.0f s: read %,d lines (%s), loaded %,d rows %,d cells (%s), %,.0f rows/s %.1f MB/s, "
        + "bad lines %,d", (now - startNanos) / 1e9, lines(), mb(inputBytes()), rows, cellsLoaded(), mb(bytes),
        (rows - lastRows) / interval, (bytes - lastBytes) / interval / 1e6, badLines());
    lastNanos = now;
    lastRows = rows;
    lastBytes = bytes;
    return out;
  }

  static String mb(long bytes) {
    return String.format("%.1f MB", bytes / 1e6);
  }
}
