package io.basalt.server.convert;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.read.ReadFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.List;
import org.apache.hadoop.hbase.ByteBufferKeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.filter.Filter;

/** Drives one of HBase's own filter objects through the storage layer's {@link ReadFilter} hook. */
public final class FilterAdapter implements ReadFilter {
  private final Filter filter;
  /** Cells this filter transformed (by identity), with their weight; see {@link #weight}. */
  private final Map<Cell, Long> transformedWeights = new IdentityHashMap<>();

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
    // A scanner hands out every cell of a row before it reads the next: weights of the last row are spent.
    transformedWeights.clear();
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
      // Offered as HBase offers an unflushed cell (a ByteBufferKeyValue), so the transformed cell's heap size is
      // what HBase counts against the scan's size limit (KeyOnlyFilter's wrapper weighs more than the key).
      org.apache.hadoop.hbase.KeyValue kv = Cells.toHBase(cell);
      org.apache.hadoop.hbase.Cell in = new ByteBufferKeyValue(ByteBuffer.wrap(kv.getBuffer()), kv.getOffset(), kv.getLength());
      org.apache.hadoop.hbase.Cell out = filter.transformCell(in);
      if (out == in) {
        return cell;
      }
      Cell converted = Cells.toStorage(out);
      transformedWeights.put(converted, out.heapSize());
      return converted;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The weight HBase gives a cell of this read against the scan's size limit: its transformed form's heap
   * size if this filter transformed it, else {@link ScanSizes#heapSize}.
   */
  public long weight(Cell cell) {
    Long w = transformedWeights.remove(cell);
    return w != null ? w : ScanSizes.heapSize(cell);
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
