package io.basalt.storage.mutation;

import java.util.List;

/**
 * Adds to 8-byte big-endian counters of one row, atomically. A missing counter counts as 0.
 *
 * @param returnResults false to skip building the result (HBase's {@code setReturnResults(false)})
 */
public record Increment(byte[] row, List<Delta> deltas, boolean returnResults) implements RowOperation {
  /** One counter's change. */
  public record Delta(byte[] family, byte[] qualifier, long amount) {}

  public Increment {
    deltas = List.copyOf(deltas);
  }
}
