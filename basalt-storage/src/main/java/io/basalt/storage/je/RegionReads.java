package io.basalt.storage.je;

import com.sleepycat.je.DatabaseException;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.lock.RowLocks;
import io.basalt.storage.read.ReadOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Reads of one row: a Get under its row's lock, and the row read with a filter's row-level calls, which
 * Gets, scans ({@link JeScanner}) and read-modify-writes ({@link RowWriter}) share.
 */
final class RegionReads {
  private final RegionCatalog catalog;
  private final RowLocks locks;
  private final LongAdder rowsRead;
  private final LongSupplier clock;

  RegionReads(RegionCatalog catalog, RowLocks locks, LongAdder rowsRead, LongSupplier clock) {
    this.catalog = catalog;
    this.locks = locks;
    this.rowsRead = rowsRead;
    this.clock = clock;
  }

  /** The caller keeps the region open. */
  List<Cell> get(byte[] row, ReadOptions options) {
    try {
      catalog.checkRow(row);
      rowsRead.increment();
      RowReader reader = new RowReader(catalog.selectFamilies(options.columns()), options, clock.getAsLong());
      if (options.filter() != null) {
        return locks.readLocked(row, () -> readWithRowFilter(reader, row));
      }
      return locks.readRow(row, () -> readWithRowFilter(reader, row));
    } catch (DatabaseException e) {
      throw JeErrors.translate("get", e);
    }
  }

  /** Reads one row applying the filter's row-level calls in HBase's order. */
  static List<Cell> readWithRowFilter(RowReader reader, byte[] row, CellCursor[] cursors) {
    return readRowFiltered(reader, row, cursors, null).cells();
  }

  /** {@code starts}: where the cursors already are, see {@link RowReader#read}. */
  static RowReader.Outcome readRowFiltered(RowReader reader, byte[] row, CellCursor[] cursors, byte[][] starts) {
    var filter = reader.options().filter();
    if (filter != null) {
      // No reset here: HBase resets after each row (the scanner does), and a Get's filter is fresh.
      if (filter.filterRowKey(row)) {
        return RowReader.Outcome.NOTHING;
      }
    }
    RowReader.Outcome outcome = reader.read(row, cursors, starts);
    if (filter == null) {
      return outcome;
    }
    List<Cell> cells = new ArrayList<>(outcome.cells());
    if (filter.hasFilterRow()) {
      filter.filterRowCells(cells);
      if (!cells.isEmpty() && filter.filterRow()) {
        cells.clear();
      }
    } else if (filter.filterRow()) {
      cells.clear();
    }
    return outcome.withCells(cells);
  }

  /** The same with cursors of its own. */
  static List<Cell> readWithRowFilter(RowReader reader, byte[] row) {
    CellCursor[] cursors = Cursors.open(reader.families());
    try {
      return readWithRowFilter(reader, row, cursors);
    } finally {
      Cursors.close(cursors);
    }
  }
}
