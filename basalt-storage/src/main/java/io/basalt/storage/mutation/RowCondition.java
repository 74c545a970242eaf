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
   * HBase's {@code ifMatches(family, qualifier, op, value)} / {@code ifNotExists}: a null or empty
   * {@code value} with EQUAL means "the column does not exist"; otherwise the newest version in the time
   * range is compared as {@code value OP stored}, and a missing column fails every comparison.
   */
  static RowCondition column(byte[] family, byte[] qualifier, CompareOp op, byte[] value, TimeRange timeRange) {
    ReadOptions read = ReadOptions.DEFAULT
        .withColumns(ColumnSelection.builder().column(family, qualifier).build())
        .withTimeRange(timeRange);
    boolean checkAbsent = value == null || value.length == 0;
    return new RowCondition() {
      @Override
      public ReadOptions read() {
        return read;
      }

      @Override
      public boolean test(List<Cell> cells) {
        if (cells.isEmpty()) {
          return checkAbsent && (op == CompareOp.EQUAL);
        }
        byte[] stored = cells.get(0).value();
        if (checkAbsent && op == CompareOp.EQUAL) {
          return stored.length == 0;
        }
        return op.holds(Bytes.compare(value == null ? Bytes.EMPTY : value, stored));
      }
    };
  }
}
