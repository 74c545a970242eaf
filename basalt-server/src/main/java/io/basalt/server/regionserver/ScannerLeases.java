package io.basalt.server.regionserver;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Open scanners by id, each with a lease the client keeps alive by calling; a scanner left alone longer than
 * the lease is closed (HBase's {@code hbase.client.scanner.timeout.period}).
 */
final class ScannerLeases implements AutoCloseable {
  /** One open scanner and its RPC-level state. */
  static final class Lease {
    final long id;
    final String regionName;
    final ResultCursor cursor;
    final long maxResultSize;
    long nextCallSeq;
    /** The row of the last call's last result when it said "more in this row" (see {@link RowLimit}). */
    byte[] rowOfLastPartial;
    volatile long lastTouchNanos = System.nanoTime();

    Lease(long id, String regionName, ResultCursor cursor, long maxResultSize) {
      this.id = id;
      this.regionName = regionName;
      this.cursor = cursor;
      this.maxResultSize = maxResultSize;
    }
  }

  private final Map<Long, Lease> leases = new ConcurrentHashMap<>();
  private final AtomicLong ids;
  private final long leaseMillis;
  private final long maxResultBytes;
  private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "scanner-lease-reaper");
    t.setDaemon(true);
    return t;
  });

  ScannerLeases(ScannerLimits limits, long idSeed) {
    this.leaseMillis = limits.leaseMillis();
    this.maxResultBytes = limits.maxResultBytes();
    this.ids = new AtomicLong(idSeed);
    long period = Math.max(100, leaseMillis / 4);
    reaper.scheduleWithFixedDelay(this::expire, period, period, TimeUnit.MILLISECONDS);
  }

  long leaseMillis() {
    return leaseMillis;
  }

  /** The server's cap on one scan call ({@code hbase.server.scanner.max.result.size}). */
  long maxResultBytes() {
    return maxResultBytes;
  }

  Lease open(String regionName, ResultCursor cursor, long maxResultSize) {
    Lease l = new Lease(ids.incrementAndGet(), regionName, cursor, maxResultSize);
    leases.put(l.id, l);
    return l;
  }

  Lease get(long id) {
    Lease l = leases.get(id);
    if (l != null) {
      l.lastTouchNanos = System.nanoTime();
    }
    return l;
  }

  void close(long id) {
    Lease l = leases.remove(id);
    if (l != null) {
      l.cursor.close();
    }
  }

  /** Closes every scanner of a region that is going away. */
  void closeRegion(String regionName) {
    leases.values().removeIf(l -> {
      if (l.regionName.equals(regionName)) {
        l.cursor.close();
        return true;
      }
      return false;
    });
  }

  private void expire() {
    long now = System.nanoTime();
    leases.values().removeIf(l -> {
      if (now - l.lastTouchNanos > TimeUnit.MILLISECONDS.toNanos(leaseMillis)) {
        l.cursor.close();
        return true;
      }
      return false;
    });
  }

  int size() {
    return leases.size();
  }

  @Override
  public void close() {
    reaper.shutdownNow();
    leases.values().forEach(l -> l.cursor.close());
    leases.clear();
  }
}
