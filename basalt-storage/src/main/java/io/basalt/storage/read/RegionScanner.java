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
  List<RowResult> next(int maxResults, long maxBytes);

  /** True once the scan has returned everything (or its limit). */
  boolean isDone();

  /**
   * True when the scan as a whole is over, not just this region's part of it: its row limit was reached
   * or its filter said nothing more can match.
   */
  boolean isComplete();

  @Override
  void close();
}
