package io.basalt.server.regionserver;

import io.basalt.server.convert.ScanSizes;
import io.basalt.server.rpc.ServerErrors;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanBudget;
import java.io.IOException;
import java.util.List;
import java.util.function.ToLongFunction;

/** A {@link ResultCursor} over a storage region scanner; {@code stale} when it reads a secondary copy. */
final class StoreCursor implements ResultCursor {
  private final RegionScanner scanner;
  private final boolean stale;
  private final ToLongFunction<io.basalt.storage.cell.Cell> weigher;

  /** {@code weigher}: each cell's weight against the scan's size limit, see {@link ScanSizes}. */
  StoreCursor(RegionScanner scanner, boolean stale, ToLongFunction<io.basalt.storage.cell.Cell> weigher) {
    this.scanner = scanner;
    this.stale = stale;
    this.weigher = weigher;
  }

  @Override
  public List<RowResult> next(int rows, long maxBytes, boolean cutRows, long deadlineNanos, int maxNewRows)
      throws IOException {
    try {
      return scanner.next(new ScanBudget(rows, maxBytes, cutRows, weigher, deadlineNanos, maxNewRows));
    } catch (RuntimeException e) {
      throw ServerErrors.toIOException(e);
    }
  }

  @Override
  public boolean stale() {
    return stale;
  }

  @Override
  public boolean regionDone() {
    return scanner.isDone();
  }

  @Override
  public boolean scanComplete() {
    return scanner.isComplete();
  }

  @Override
  public boolean filterDone() {
    return scanner.isFilterDone();
  }

  @Override
  public void close() {
    scanner.close();
  }
}
