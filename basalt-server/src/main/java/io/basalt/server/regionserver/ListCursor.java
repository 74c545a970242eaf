package io.basalt.server.regionserver;

import io.basalt.server.convert.Cells;
import io.basalt.storage.read.RowResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;

/** A {@link ResultCursor} over results computed up front (hbase:meta, which is small). */
final class ListCursor implements ResultCursor {
  private final List<Result> results;
  private int pos;

  ListCursor(List<Result> results) {
    this.results = results;
  }

  @Override
  public List<RowResult> next(int rows, long maxBytes, boolean cutRows, long deadlineNanos, int maxNewRows) {
    List<RowResult> out = new ArrayList<>();
    int cap = maxNewRows > 0 ? Math.min(rows, maxNewRows) : rows; // every result is a whole row
    while (pos < results.size() && out.size() < cap) {
      Result r = results.get(pos++);
      List<io.basalt.storage.cell.Cell> cells = r.isEmpty() ? List.of() : Cells.toStorage(Arrays.asList(r.rawCells()));
      out.add(new RowResult(r.getRow(), cells, false));
    }
    return out;
  }

  @Override
  public boolean regionDone() {
    return pos >= results.size();
  }

  @Override
  public boolean scanComplete() {
    return false;
  }

  @Override
  public void close() {}

  @Override
  public boolean stale() {
    return false;
  }
}
