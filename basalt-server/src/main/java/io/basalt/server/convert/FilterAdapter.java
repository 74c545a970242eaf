package io.basalt.server.convert;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.read.ReadFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.filter.Filter;

/** Drives one of HBase's own filter objects through the storage layer's {@link ReadFilter} hook. */
public final class FilterAdapter implements ReadFilter {
  private final Filter filter;

  public FilterAdapter(Filter filter) {
    this.filter = filter;
  }

  @Override
  public void reset() {
    try {
      filter.reset();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public boolean filterAllRemaining() {
    try {
      return filter.filterAllRemaining();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public boolean filterRowKey(byte[] row) {
    try {
      return filter.filterRowKey(KeyValueUtil.createFirstOnRow(row));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Decision filterCell(Cell cell) {
    try {
      return switch (filter.filterCell(Cells.toHBase(cell))) {
        case INCLUDE -> Decision.INCLUDE;
        case INCLUDE_AND_NEXT_COL -> Decision.INCLUDE_AND_NEXT_COL;
        case INCLUDE_AND_SEEK_NEXT_ROW -> Decision.INCLUDE_AND_SEEK_NEXT_ROW;
        case SKIP -> Decision.SKIP;
        case NEXT_COL -> Decision.NEXT_COL;
        case NEXT_ROW -> Decision.NEXT_ROW;
        case SEEK_NEXT_USING_HINT -> Decision.SEEK_NEXT_USING_HINT;
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Cell transformCell(Cell cell) {
    try {
      org.apache.hadoop.hbase.KeyValue in = Cells.toHBase(cell);
      org.apache.hadoop.hbase.Cell out = filter.transformCell(in);
      return out == in ? cell : Cells.toStorage(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Cell nextCellHint(Cell current) {
    try {
      org.apache.hadoop.hbase.Cell hint = filter.getNextCellHint(Cells.toHBase(current));
      return hint == null ? null : Cells.seekTarget(hint);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public boolean hasFilterRow() {
    return filter.hasFilterRow();
  }

  @Override
  public void filterRowCells(List<Cell> cells) {
    try {
      List<org.apache.hadoop.hbase.Cell> hb = new ArrayList<>(Cells.toHBase(cells));
      filter.filterRowCells(hb);
      cells.clear();
      cells.addAll(Cells.toStorage(hb));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public boolean filterRow() {
    try {
      return filter.filterRow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
