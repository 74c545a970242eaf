package io.basalt.storage.je;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.mutation.Append;
import io.basalt.storage.mutation.Increment;
import io.basalt.storage.mutation.RowOperation;
import io.basalt.storage.read.TimeRange;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A new value for one column computed from its current one (null when absent): the newest version inside
 * {@code timeRange}. {@code timestamp} is the new cell's when there is no current value (LATEST: now).
 */
record ColumnChange(byte[] family, byte[] qualifier, long timestamp, TimeRange timeRange, UnaryOperator<byte[]> next) {

  /** What an increment or append does to each of its columns; nothing for a plain mutation. */
  static List<ColumnChange> of(RowOperation op) {
    List<ColumnChange> out = new ArrayList<>();
    if (op instanceof Increment inc) {
      for (Increment.Delta d : inc.deltas()) {
        out.add(new ColumnChange(d.family(), d.qualifier(), d.timestamp(), inc.timeRange(), prev -> {
          if (prev == null) {
            return Bytes.of(d.amount());
          }
          if (prev.length != 8) {
            throw new InvalidMutationException("Field is not a long, it's " + prev.length + " bytes wide");
          }
          return Bytes.of(Bytes.toLong(prev) + d.amount());
        }));
      }
    } else if (op instanceof Append app) {
      for (Append.Suffix sfx : app.suffixes()) {
        out.add(new ColumnChange(sfx.family(), sfx.qualifier(), sfx.timestamp(), app.timeRange(),
            prev -> prev == null ? sfx.value() : Bytes.concat(prev, sfx.value())));
      }
    }
    return out;
  }

  static TimeRange timeRange(RowOperation op) {
    return op instanceof Increment inc ? inc.timeRange() : op instanceof Append app ? app.timeRange() : TimeRange.ALL;
  }

  static boolean returnsResults(RowOperation op) {
    return op instanceof Increment inc ? inc.returnResults() : op instanceof Append app && app.returnResults();
  }
}
