package io.basalt.server.regionserver;

import io.basalt.storage.read.RowResult;
import java.io.IOException;
import java.util.List;

/**
 * An open scan of one region as the Scan RPC sees it: batches of rows (or parts of rows), which the call turns into
 * its response's cells without an HBase {@code Result} per row.
 */
interface ResultCursor extends AutoCloseable {
  /**
   * Up to {@code rows} results within about {@code maxBytes}; empty when the region part is done or when
   * {@code deadlineNanos} passed before anything was found ({@link #regionDone()} tells which).
   * {@code cutRows}: the client takes partial results, so the size limit may cut a row (HBase's
   * {@code client_handles_partials}). {@code maxNewRows} (0: any): rows begun in this call, at most.
   */
  List<RowResult> next(int rows, long maxBytes, boolean cutRows, long deadlineNanos, int maxNewRows) throws IOException;

  /** No more results in this region. */
  boolean regionDone();

  /** The whole scan is over (the filter rules out everything after). */
  boolean scanComplete();

  /** The scan's filter rules out every row after ({@code filterAllRemaining}). */
  default boolean filterDone() {
    return false;
  }

  /** The rows come from a secondary copy and may be behind the primary's (HBase's TIMELINE reads). */
  boolean stale();

  @Override
  void close();
}
