package io.basalt.bench.elasticity;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;

/**
 * What one client sees of one row while its region splits or moves: a thread gets the row about once a
 * millisecond through its own HBase connection with retries off, so every refusal (NotServingRegion,
 * RegionMoved, region in transition) surfaces instead of being retried inside the client, and the next get
 * re-locates the row through meta as a client does. Each attempt is kept (start, end, served or not), and
 * {@link #window} reads the unavailability of an operation from them.
 */
final class Probe implements AutoCloseable {
  private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /**
   * Unavailability seen by the probe around one operation. {@code refusedToServedMillis}: from sending the
   * first refused get to the reply of the first get served after it (0 if nothing was refused);
   * {@code maxGapMillis}: the longest time between two served replies (covers gets that were held rather
   * than refused); {@code refused}: gets refused.
   */
  record Window(double refusedToServedMillis, double maxGapMillis, int refused, int attempts) {}

  private final Connection connection;
  private final Table table;
  private final byte[] row;
  private final Thread thread;
  private long[] starts = new long[1 << 16];
  private long[] ends = new long[1 << 16];
  private boolean[] served = new boolean[1 << 16];
  private int count;
  private volatile boolean stop;

  Probe(Configuration base, TableName tableName, byte[] row, String name) throws IOException {
    Configuration conf = new Configuration(base);
    conf.setInt("hbase.client.retries.number", 0);
    conf.setInt("hbase.client.pause", 1);
    conf.setInt("hbase.rpc.timeout", 5_000);
    conf.setInt("hbase.client.operation.timeout", 5_000);
    conf.setInt("hbase.client.meta.operation.timeout", 5_000);
    this.connection = ConnectionFactory.createConnection(conf);
    this.table = connection.getTable(tableName);
    this.row = row;
    this.thread = new Thread(this::run, "probe-" + name);
    thread.setDaemon(true);
  }

  Probe start() {
    thread.start();
    return this;
  }

  private void run() {
    Get get = new Get(row);
    while (!stop) {
      long start = System.nanoTime();
      boolean ok;
      try {
        ok = !table.get(get).isEmpty();
      } catch (IOException | RuntimeException e) {
        ok = false;
      }
      long end = System.nanoTime();
      record(start, end, ok);
      long wait = PERIOD_NANOS - (end - start);
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
    }
  }

  private synchronized void record(long start, long end, boolean ok) {
    if (count == starts.length) {
      starts = java.util.Arrays.copyOf(starts, count * 2);
      ends = java.util.Arrays.copyOf(ends, count * 2);
      served = java.util.Arrays.copyOf(served, count * 2);
    }
    starts[count] = start;
    ends[count] = end;
    served[count] = ok;
    count++;
  }

  /** Whether a get started at or after {@code nanos} has been served. */
  synchronized boolean servedSince(long nanos) {
    for (int i = count - 1; i >= 0 && starts[i] >= nanos; i--) {
      if (served[i]) {
        return true;
      }
    }
    return false;
  }

  /** Waits (bounded) until a get started at or after {@code nanos} is served; false on timeout. */
  boolean awaitServedSince(long nanos, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!servedSince(nanos)) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(2);
    }
    return true;
  }

  /** The unavailability seen between {@code fromNanos} and {@code toNanos} (attempts started in between). */
  synchronized Window window(long fromNanos, long toNanos) {
    int first = 0;
    while (first < count && starts[first] < fromNanos) {
      first++;
    }
    long lastServedEnd = -1;
    for (int i = first - 1; i >= 0; i--) {
      if (served[i]) {
        lastServedEnd = ends[i];
        break;
      }
    }
    long firstRefusedStart = -1;
    long servedAfterRefusal = -1;
    long maxGap = 0;
    int refused = 0;
    int attempts = 0;
    for (int i = first; i < count && starts[i] <= toNanos; i++) {
      attempts++;
      if (served[i]) {
        if (lastServedEnd >= 0) {
          maxGap = Math.max(maxGap, ends[i] - lastServedEnd);
        }
        lastServedEnd = ends[i];
        if (firstRefusedStart >= 0 && servedAfterRefusal < 0) {
          servedAfterRefusal = ends[i];
        }
      } else {
        refused++;
        if (firstRefusedStart < 0) {
          firstRefusedStart = starts[i];
        }
      }
    }
    double window = firstRefusedStart < 0 ? 0
        : servedAfterRefusal < 0 ? Double.NaN : (servedAfterRefusal - firstRefusedStart) / 1e6;
    return new Window(window, maxGap / 1e6, refused, attempts);
  }

  @Override
  public void close() throws IOException, InterruptedException {
    stop = true;
    thread.join(10_000);
    table.close();
    connection.close();
  }
}
