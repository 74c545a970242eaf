package io.basalt.storage.mutation;

import io.basalt.storage.read.TimeRange;
import java.util.List;
import java.util.Objects;

/**
 * Appends bytes to columns of one row, atomically. A missing column starts empty. Current values and new
 * timestamps follow the same rules as {@link Increment}.
 */
public record Append(byte[] row, List<Suffix> suffixes, boolean returnResults, TimeRange timeRange)
    implements RowOperation {
  /** One column's addition; {@code timestamp} is used only when the column has no current value. */
  public record Suffix(byte[] family, byte[] qualifier, byte[] value, long timestamp) {
    public Suffix(byte[] family, byte[] qualifier, byte[] value) {
      this(family, qualifier, value, RowMutation.LATEST);
    }
  }

  public Append {
    suffixes = List.copyOf(suffixes);
    Objects.requireNonNull(timeRange, "timeRange");
  }

  public Append(byte[] row, List<Suffix> suffixes, boolean returnResults) {
    this(row, suffixes, returnResults, TimeRange.ALL);
  }
}
