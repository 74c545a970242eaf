package io.basalt.server.regionserver;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;

/** A {@link ResultCursor} over results computed up front (hbase:meta, which is small). */
final class ListCursor implements ResultCursor {
  private final List<Result> results;
  private final boolean limited;
  private int pos;

  ListCursor(List<Result> results, int limit) {
    this.limited = limit > 0 && results.size() >= limit;
    this.results = limit > 0 && results.size() > limit ? results.subList(0, limit) : results;
  }

  @Override
  public List<Result> next(int rows, long maxBytes, boolean cutRows, long deadlineNanos) {
    List<Result> out = new ArrayList<>();
    while (pos < results.size() && out.size() < rows) {
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
    return limited && regionDone();
  }

  @Override
  public void close() {}

  @Override
  public boolean stale() {
    return false;
  }
}
