package io.basalt.storage.read;

import io.basalt.storage.cell.Cell;
import java.util.List;

/**
 * The hook through which a caller's filter sees a read, called in HBase's order: for each row
 * {@link #filterAllRemaining}, {@link #filterRowKey}, then {@link #filterCell}/{@link #transformCell} for each
 * visible cell (after time range and delete masking, before version counting), then
 * {@link #filterRowCells} and {@link #filterRow}, and {@link #reset} before the next row. The server adapts
 * HBase's own filter classes to this; the storage layer never sees them.
 */
public interface ReadFilter {
  /**
   * HBase's {@code Filter.ReturnCode}, one to one. As in HBase, where each family is read by its own store
   * scanner, NEXT_ROW and INCLUDE_AND_SEEK_NEXT_ROW end the current family's part of the row; the row's other
   * families are still offered to the filter.
   */
  enum Decision {
    INCLUDE,
    INCLUDE_AND_NEXT_COL,
    INCLUDE_AND_SEEK_NEXT_ROW,
    SKIP,
    NEXT_COL,
    NEXT_ROW,
    SEEK_NEXT_USING_HINT
  }

  default void reset() {}

  default boolean filterAllRemaining() {
    return false;
  }

  /** True to skip the whole row. */
  default boolean filterRowKey(byte[] row) {
    return false;
  }

  default Decision filterCell(Cell cell) {
    return Decision.INCLUDE;
  }

  default Cell transformCell(Cell cell) {
    return cell;
  }

  /** For {@link Decision#SEEK_NEXT_USING_HINT}: the cell to seek to (row, family, qualifier, timestamp). */
  default Cell nextCellHint(Cell current) {
    return null;
  }

  /** True when {@link #filterRowCells}/{@link #filterRow} must see whole rows (no intra-row batching). */
  default boolean hasFilterRow() {
    return false;
  }

  default void filterRowCells(List<Cell> cells) {}

  /** True to drop the row assembled so far. */
  default boolean filterRow() {
    return false;
  }
}
