package io.basalt.server.convert;

import io.basalt.storage.cell.Cell;

/**
 * A cell's weight against a scan's size limit, counted as HBase 2.6's region server counts it, so a wide row
 * is cut into partial results at the same cells. HBase adds each returned cell's heap size and stops at the
 * first cell that makes the call's total reach {@code maxResultSize} (its serialized size, always smaller, never
 * decides). The heap size is that of an unflushed cell: a KeyValue in a MemStore chunk,
 * {@code align8(32 + KeyValue length)} on a 64-bit JVM with compressed references. Cells HBase reads back from
 * flushed files weigh a little differently, so HBase's cut points move with flushes; Basalt's never do.
 */
public final class ScanSizes {
  /** ByteBufferKeyValue's fixed overhead: object header 12, one reference 4, two ints, one long. */
  private static final long CELL_OVERHEAD = 32;
  /** KeyValue framing without tags: key and value lengths (4+4), row length 2, family length 1, timestamp 8, type 1. */
  private static final long KEYVALUE_FRAMING = 20;

  private ScanSizes() {}

  public static long heapSize(Cell c) {
    long length = KEYVALUE_FRAMING + c.row().length + c.family().length + c.qualifier().length + c.valueLength();
    return (CELL_OVERHEAD + length + 7) & ~7L;
  }

  /** How a read's cells weigh: as {@link #heapSize}, or as its filter says when the filter transforms cells. */
  public static java.util.function.ToLongFunction<Cell> weigher(io.basalt.storage.read.ReadFilter filter) {
    return filter instanceof FilterAdapter adapter ? adapter::weight : ScanSizes::heapSize;
  }

  /**
   * The limit of one scan call: the scan's own when it has one, never above the server's
   * ({@code hbase.server.scanner.max.result.size}).
   */
  public static long callLimit(long scanMaxResultSize, long serverMaxResultSize) {
    return scanMaxResultSize > 0 ? Math.min(scanMaxResultSize, serverMaxResultSize) : serverMaxResultSize;
  }
}
