package io.basalt.gateway.thrift;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.client.ResultScanner;

/**
 * The scanners clients opened, by the integer id Thrift 1 hands out. A client that never closes its scanner
 * (it died, or forgot) would pin a server-side scanner for ever: one idle longer than the lease is closed
 * and forgotten, as HBase's gateway expires them from its cache. The sweep rides on opens and reads (at most
 * one per tenth of the lease), so an idle gateway needs no thread of its own.
 */
final class ScannerTable implements AutoCloseable {
  /** An open scanner and how its rows are shaped (TScan.sortColumns). */
  record Entry(ResultScanner scanner, boolean sortColumns) {}

  private static final class Slot {
    final Entry entry;
    volatile long lastUsedNanos;

    Slot(Entry entry, long now) {
      this.entry = entry;
      this.lastUsedNanos = now;
    }
  }

  private final Map<Integer, Slot> open = new ConcurrentHashMap<>();
  private final AtomicInteger nextId = new AtomicInteger();
  private final long leaseNanos;
  private final LongSupplier clock;
  private volatile long lastSweepNanos;

  ScannerTable(long leaseNanos, LongSupplier clock) {
    this.leaseNanos = leaseNanos;
    this.clock = clock;
    this.lastSweepNanos = clock.getAsLong();
  }

  int add(ResultScanner scanner, boolean sortColumns) {
    sweepNow();
    int id = nextId.incrementAndGet();
    open.put(id, new Slot(new Entry(scanner, sortColumns), clock.getAsLong()));
    return id;
  }

  /** The scanner, or null if the id is unknown, closed or expired. */
  Entry get(int id) {
    sweepNow();
    Slot slot = open.get(id);
    if (slot == null) {
      return null;
    }
    slot.lastUsedNanos = clock.getAsLong();
    return slot.entry;
  }

  /** Closes and forgets the scanner; false if the id was not open. */
  boolean close(int id) {
    Slot slot = open.remove(id);
    if (slot == null) {
      return false;
    }
    slot.entry.scanner().close();
    return true;
  }

  int size() {
    return open.size();
  }

  private void sweepNow() {
    long now = clock.getAsLong();
    if (now - lastSweepNanos >= leaseNanos / 10) {
      lastSweepNanos = now;
      expireIdle();
    }
  }

  void expireIdle() {
    long now = clock.getAsLong();
    open.entrySet().removeIf(e -> {
      if (now - e.getValue().lastUsedNanos > leaseNanos) {
        e.getValue().entry.scanner().close();
        return true;
      }
      return false;
    });
  }

  @Override
  public void close() {
    open.values().forEach(s -> s.entry.scanner().close());
    open.clear();
  }
}
