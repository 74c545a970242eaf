package io.basalt.storage.mutation;

import io.basalt.storage.read.TimeRange;
import java.util.List;
import java.util.Objects;

/**
 * Adds to 8-byte big-endian counters of one row, atomically. A missing counter counts as 0.
 *
 * <p>HBase's rules, which the store follows: each counter's current value is the newest version inside
 * {@code timeRange}, as stored before this operation (two deltas of one column both read it). The new cell
 * gets {@code max(now, current.ts + 1)} when there is a current value; otherwise the delta's own timestamp,
 * "now" when that is {@link RowMutation#LATEST}.
 *
 * @param returnResults false to skip building the result (HBase's {@code setReturnResults(false)})
 * @param timeRange which versions may serve as the current value (HBase's {@code Increment.setTimeRange})
 */
public record Increment(byte[] row, List<Delta> deltas, boolean returnResults, TimeRange timeRange)
    implements RowOperation {
  /** One counter's change; {@code timestamp} is used only when the counter has no current value. */
  public record Delta(byte[] family, byte[] qualifier, long amount, long timestamp) {
    public Delta(byte[] family, byte[] qualifier, long amount) {
      this(family, qualifier, amount, RowMutation.LATEST);
    }
  }

  public Increment {
    deltas = List.copyOf(deltas);
    Objects.requireNonNull(timeRange, "timeRange");
  }

  public Increment(byte[] row, List<Delta> deltas, boolean returnResults) {
    this(row, deltas, returnResults, TimeRange.ALL);
  }
}
