package io.basalt.storage.read;

import io.basalt.storage.cell.Cell;
import java.util.function.ToLongFunction;

/**
 * What one call of {@link RegionScanner#next(ScanBudget)} may return: at most {@code maxResults} results,
 * stopping once the cells returned reach {@code maxBytes} as {@code cellSize} counts them (the caller's
 * accounting: the RPC edge counts as HBase does, so size cuts fall where HBase's do), and at
 * {@code deadlineNanos} ({@link Long#MAX_VALUE}: none).
 *
 * <p>{@code cutRows}: the size limit may cut a row, as HBase does when the client handles partial results;
 * the rest of the row follows in the next call. Without it rows are only cut by the scan's batch.
 *
 * <p>{@code maxNewRows} (0: any): at most this many rows begun in this call, besides the rest of one begun
 * before. The RPC edge counts a scan's row limit per call as HBase does, and needs no more rows than that.
 */
public record ScanBudget(int maxResults, long maxBytes, boolean cutRows, ToLongFunction<Cell> cellSize,
    long deadlineNanos, int maxNewRows) {
  public ScanBudget {
    if (cellSize == null) {
      throw new IllegalArgumentException("cellSize is required");
    }
  }

  public ScanBudget(int maxResults, long maxBytes, boolean cutRows, ToLongFunction<Cell> cellSize,
      long deadlineNanos) {
    this(maxResults, maxBytes, cutRows, cellSize, deadlineNanos, 0);
  }

  /** Whole rows, sizes as the storage layer estimates them. */
  public static ScanBudget wholeRows(int maxResults, long maxBytes, long deadlineNanos) {
    return new ScanBudget(maxResults, maxBytes, false, Cell::estimatedSize, deadlineNanos);
  }
}
