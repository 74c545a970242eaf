package io.basalt.it.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Client load during a split, move or crash, through the unmodified HBase client: writers put rows spread
 * over the key space (keys are a mixed counter, so every region gets some) and remember each write the
 * cluster acknowledged; readers get random acknowledged rows (a {@code readPercent} share of operations).
 * {@link #verify} then reads every acknowledged row back and reports each one missing or wrong, so one lost
 * write fails the test.
 */
final class Workload implements AutoCloseable {
  static final byte[] F = Bytes.toBytes("f");
  static final byte[] Q = Bytes.toBytes("q");

  private final Connection conn;
  private final TableName table;
  private final int readPercent;
  private final List<Thread> threads = new ArrayList<>();
  private final Map<String, String> acked = new ConcurrentHashMap<>();
  private final List<String> ackedKeys = java.util.Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong counter = new AtomicLong();
  private final AtomicLong ops = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong wrongReads = new AtomicLong();
  /** The longest a writer waited between two of its acknowledged writes, in ms. */
  private final AtomicLong longestWriteGapMillis = new AtomicLong();
  /** The first failures seen (time, thread, exception), for explaining a long wait. */
  private final List<String> failureLog = java.util.Collections.synchronizedList(new ArrayList<>());
  private volatile boolean stop;

  Workload(Connection conn, TableName table, int threads, int readPercent) {
    this.conn = conn;
    this.table = table;
    this.readPercent = readPercent;
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(this::run, "workload-" + i);
      t.setDaemon(true);
      this.threads.add(t);
    }
  }

  /** Key of the n-th write: a bijective mix of n, so consecutive writes land all over the key space. */
  static String key(long n) {
    long x = n * 0x9E3779B97F4A7C15L;
    x ^= x >>> 29;
    return String.format("k%016x", x);
  }

  Workload start() {
    threads.forEach(Thread::start);
    return this;
  }

  private void run() {
    try (Table t = conn.getTable(table)) {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      long lastAck = System.nanoTime();
      while (!stop) {
        boolean read = random.nextInt(100) < readPercent && ackedKeys.size() > 0;
        try {
          if (read) {
            String k = ackedKeys.get(random.nextInt(ackedKeys.size()));
            String expected = acked.get(k);
            Result r = t.get(new Get(Bytes.toBytes(k)));
            if (!expected.equals(Bytes.toString(r.getValue(F, Q)))) {
              wrongReads.incrementAndGet();
            }
          } else {
            long n = counter.incrementAndGet();
            String k = key(n);
            String v = k + "/" + n;
            t.put(new Put(Bytes.toBytes(k)).addColumn(F, Q, Bytes.toBytes(v)));
            acked.put(k, v);
            ackedKeys.add(k);
            long now = System.nanoTime();
            longestWriteGapMillis.accumulateAndGet((now - lastAck) / 1_000_000, Math::max);
            lastAck = now;
          }
          ops.incrementAndGet();
        } catch (IOException e) {
          failures.incrementAndGet();
          if (failureLog.size() < 200) {
            failureLog.add(java.time.LocalTime.now() + " " + Thread.currentThread().getName() + " " + e.toString()
                .lines().findFirst().orElse(""));
          }
        }
      }
    } catch (IOException e) {
      failures.incrementAndGet();
    }
  }

  long operations() {
    return ops.get();
  }

  long acknowledgedWrites() {
    return acked.size();
  }

  long failures() {
    return failures.get();
  }

  /** The longest any writer waited between two of its acknowledged writes, in ms. */
  long longestWriteGapMillis() {
    return longestWriteGapMillis.get();
  }

  /** Starts measuring write gaps afresh (e.g. right before a failure is injected). */
  void resetWriteGaps() {
    longestWriteGapMillis.set(0);
  }

  /** The first failed operations, each with its time, thread and exception. */
  List<String> failureLog() {
    return List.copyOf(failureLog);
  }

  /** Reads that returned something other than the acknowledged value (must stay 0). */
  long wrongReads() {
    return wrongReads.get();
  }

  /** Waits until at least {@code n} more writes were acknowledged (bounded). */
  void awaitWrites(long n, long timeoutMillis) throws InterruptedException {
    long target = acked.size() + n;
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (acked.size() < target && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
  }

  /** Every acknowledged write that cannot be read back with its value. */
  List<String> verify() throws IOException {
    List<String> lost = new ArrayList<>();
    try (Table t = conn.getTable(table)) {
      List<String> keys = new ArrayList<>(acked.keySet());
      for (int i = 0; i < keys.size(); i += 500) {
        List<Get> gets = new ArrayList<>();
        for (String k : keys.subList(i, Math.min(keys.size(), i + 500))) {
          gets.add(new Get(Bytes.toBytes(k)));
        }
        Result[] results = t.get(gets);
        for (int j = 0; j < results.length; j++) {
          String k = keys.get(i + j);
          String got = Bytes.toString(results[j].getValue(F, Q));
          if (!acked.get(k).equals(got)) {
            lost.add(k + " expected " + acked.get(k) + " got " + got);
          }
        }
      }
    }
    return lost;
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    for (Thread t : threads) {
      t.join(60_000);
    }
  }
}
