package io.basalt.gateway.rest;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;

/**
 * The stateful scanners clients created with {@code POST /TABLE/scanner}, by id. Each GET hands out up to the
 * scanner's batch of cells, keeping the rest of a row for the next GET, as HBase's ScannerResultGenerator does.
 * A scanner idle longer than the lease is closed and forgotten (a client that never DELETEs it would pin a
 * server-side scanner for ever); the sweep rides on requests, so an idle gateway needs no thread of its own.
 */
final class RestScanners implements AutoCloseable {
  /** One open scanner: its table (a GET under another table's path does not find it) and unsent cells. */
  static final class Open {
    final TableName table;
    final int batch;
    private final ResultScanner scanner;
    private final Deque<org.apache.hadoop.hbase.Cell> pending = new ArrayDeque<>();
    volatile long lastUsedNanos;

    Open(TableName table, int batch, ResultScanner scanner, long now) {
      this.table = table;
      this.batch = batch;
      this.scanner = scanner;
      this.lastUsedNanos = now;
    }

    /**
     * Up to {@code maxCells} cells in row order from at most {@code maxRows} rows (0: any number), or none when
     * the scanner is exhausted. A cell of the row past the limit stays pending for the next call, as HBase's
     * ScannerInstanceResource puts it back.
     */
    synchronized List<org.apache.hadoop.hbase.Cell> next(int maxCells, int maxRows) throws IOException {
      List<org.apache.hadoop.hbase.Cell> cells = new ArrayList<>();
      int rows = 0;
      while (cells.size() < maxCells) {
        if (pending.isEmpty()) {
          Result result = scanner.next();
          if (result == null) {
            break;
          }
          pending.addAll(List.of(result.rawCells()));
          continue;
        }
        org.apache.hadoop.hbase.Cell cell = pending.peek();
        if (cells.isEmpty() || !CellUtil.matchingRows(cells.get(cells.size() - 1), cell)) {
          if (maxRows > 0 && rows == maxRows) {
            break;
          }
          rows++;
        }
        cells.add(pending.poll());
      }
      return cells;
    }
  }

  private final Map<String, Open> open = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong();
  private final long leaseNanos;
  private final LongSupplier clock;
  private volatile long lastSweepNanos;

  RestScanners(long leaseNanos, LongSupplier clock) {
    this.leaseNanos = leaseNanos;
    this.clock = clock;
    this.lastSweepNanos = clock.getAsLong();
  }

  /** Registers a scanner; ids are unique across gateway restarts (HBase uses the clock and a counter too). */
  String add(TableName table, int batch, ResultScanner scanner) {
    sweep();
    String id = Long.toHexString(System.currentTimeMillis()) + Long.toHexString(nextId.incrementAndGet());
    open.put(id, new Open(table, batch, scanner, clock.getAsLong()));
    return id;
  }

  /** The scanner, or null when the id is unknown, deleted or expired. */
  Open get(String id) {
    sweep();
    Open scanner = open.get(id);
    if (scanner != null) {
      scanner.lastUsedNanos = clock.getAsLong();
    }
    return scanner;
  }

  boolean remove(String id) {
    Open scanner = open.remove(id);
    if (scanner == null) {
      return false;
    }
    scanner.scanner.close();
    return true;
  }

  int size() {
    return open.size();
  }

  private void sweep() {
    long now = clock.getAsLong();
    if (now - lastSweepNanos < leaseNanos / 10) {
      return;
    }
    lastSweepNanos = now;
    open.entrySet().removeIf(e -> {
      if (now - e.getValue().lastUsedNanos > leaseNanos) {
        e.getValue().scanner.close();
        return true;
      }
      return false;
    });
  }

  @Override
  public void close() {
    open.values().forEach(s -> s.scanner.close());
    open.clear();
  }
}
