package io.basalt.server.regionserver;

import java.util.ArrayList;
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
  public List<Result> next(int rows, long maxBytes, boolean cutRows, long deadlineNanos, int maxNewRows) {
    List<Result> out = new ArrayList<>();
    int cap = maxNewRows > 0 ? Math.min(rows, maxNewRows) : rows; // every result is a whole row
    while (pos < results.size() && out.size() < cap) {
      out.add(results.get(pos++));
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
