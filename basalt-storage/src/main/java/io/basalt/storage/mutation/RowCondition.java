package io.basalt.storage.mutation;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.read.ColumnSelection;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.TimeRange;
import java.util.List;

/**
 * The test of a check-and-mutate, evaluated under the row lock against what {@link #read()} returns for
 * the row. The server builds filter-based conditions on this; {@link #column} is HBase's column/value check.
 */
public interface RowCondition {
  /** What to read of the row before testing. */
  ReadOptions read();

  boolean test(List<Cell> cells);

  /**
   * HBase's {@code ifMatches(family, qualifier, op, value)}: the newest version in the time range is compared
   * as {@code value OP stored}; a missing column fails every comparison. A null or empty {@code value} is
   * HBase's existence check ({@code ifNotExists} is {@code EQUAL, null}): with no cell it holds for every
   * operator but NOT_EQUAL; with a cell it holds when "the stored value is empty" matches "op is not
   * NOT_EQUAL".
   */
  static RowCondition column(byte[] family, byte[] qualifier, CompareOp op, byte[] value, TimeRange timeRange) {
    ReadOptions read = ReadOptions.DEFAULT
        .withColumns(ColumnSelection.builder().column(family, qualifier).build())
        .withTimeRange(timeRange);
    boolean existenceCheck = value == null || value.length == 0;
    return new RowCondition() {
      @Override
      public ReadOptions read() {
        return read;
      }

      @Override
      public boolean test(List<Cell> cells) {
        if (existenceCheck) {
          boolean positive = op != CompareOp.NOT_EQUAL;
          return cells.isEmpty() ? positive : (cells.get(0).value().length == 0) == positive;
        }
        return !cells.isEmpty() && op.holds(Bytes.compare(value, cells.get(0).value()));
      }
    };
  }
}
