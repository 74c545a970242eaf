package io.basalt.storage.read;

import java.util.List;

/**
 * A scan in progress. It holds no locks or cursors between calls, so a client may take its time
 * between batches; each call sees every mutation committed before it, and each row is read atomically.
 */
public interface RegionScanner extends AutoCloseable {
  /**
   * Up to {@code maxResults} results, stopping early once {@code maxBytes} is reached (at least one result
   * is returned if any remain). An empty list means the scan is done.
   */
  default List<RowResult> next(int maxResults, long maxBytes) {
    return next(maxResults, maxBytes, Long.MAX_VALUE);
  }

  /**
   * Like {@link #next(int, long)}, but stops once {@link System#nanoTime()} passes {@code deadlineNanos}, even
   * with nothing found yet (a selective filter over many rows): an empty list with {@link #isDone()} false
   * means "nothing yet, call again".
   */
  default List<RowResult> next(int maxResults, long maxBytes, long deadlineNanos) {
    return next(ScanBudget.wholeRows(maxResults, maxBytes, deadlineNanos));
  }

  /**
   * The general form: results within {@code budget}. A result cut by the scan's batch or by the budget's size
   * (when it allows cutting rows) has {@link RowResult#partial} set; the row goes on in the next result.
   */
  List<RowResult> next(ScanBudget budget);

  /** True once the scan has returned everything (or its limit). */
  boolean isDone();

  /**
   * True when the scan as a whole is over, not just this region's part of it: its row limit was reached.
   * (A filter that rules out everything after ends only this region's part, as in HBase where each region
   * evaluates its own copy of the filter.)
   */
  boolean isComplete();

  /**
   * True when the scan's filter rules out every row after (HBase's {@code filterAllRemaining}). HBase's server
   * ends the whole scan, not just this region's part, when a call finds its filter done and returns nothing.
   */
  default boolean isFilterDone() {
    return false;
  }

  @Override
  void close();
}
