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
 */
public record ScanBudget(int maxResults, long maxBytes, boolean cutRows, ToLongFunction<Cell> cellSize,
    long deadlineNanos) {
  public ScanBudget {
    if (cellSize == null) {
      throw new IllegalArgumentException("cellSize is required");
    }
  }

  /** Whole rows, sizes as the storage layer estimates them. */
  public static ScanBudget wholeRows(int maxResults, long maxBytes, long deadlineNanos) {
    return new ScanBudget(maxResults, maxBytes, false, Cell::estimatedSize, deadlineNanos);
  }
}
