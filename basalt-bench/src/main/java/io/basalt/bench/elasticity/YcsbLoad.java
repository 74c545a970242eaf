package io.basalt.bench.elasticity;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.RejectionInversionZipfSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;

/**
 * A YCSB-style closed-loop workload through the HBase client: each thread picks a row of a {@link KeySpace}
 * by a Zipfian distribution (exponent 0.99, YCSB's default; popular rows are spread over the key space by
 * the key space's mix) and gets it ({@code readPercent}) or overwrites its value. Latencies go to an
 * HdrHistogram recorder that a sampler thread reads once a second into a {@link Second}.
 */
final class YcsbLoad implements AutoCloseable {
  static final double ZIPF_EXPONENT = 0.99;

  /** One second of the run: operations completed, failed ones, and latency percentiles in milliseconds. */
  record Second(double atSeconds, long epochMillis, long ops, long errors, double p50Millis, double p99Millis,
      double maxMillis) {}

  private final Connection conn;
  private final TableName table;
  private final KeySpace keys;
  private final int valueBytes;
  private final int readPercent;
  private final List<Thread> threads = new ArrayList<>();
  private final Recorder recorder = new Recorder(TimeUnit.MINUTES.toMicros(2), 3);
  private final AtomicLong errors = new AtomicLong();
  private final List<Second> seconds = new ArrayList<>();
  private final Thread sampler;
  private volatile long startNanos;
  private volatile long startEpochMillis;
  private volatile boolean stop;

  YcsbLoad(Connection conn, TableName table, KeySpace keys, int valueBytes, int threads, int readPercent) {
    this.conn = conn;
    this.table = table;
    this.keys = keys;
    this.valueBytes = valueBytes;
    this.readPercent = readPercent;
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(this::run, "ycsb-" + i);
      t.setDaemon(true);
      this.threads.add(t);
    }
    sampler = new Thread(this::sample, "ycsb-sampler");
    sampler.setDaemon(true);
  }

  YcsbLoad start() {
    startNanos = System.nanoTime();
    startEpochMillis = System.currentTimeMillis();
    threads.forEach(Thread::start);
    sampler.start();
    return this;
  }

  private void run() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create();
    SharedStateDiscreteSampler zipf = RejectionInversionZipfSampler.of(rng, (int) keys.count(), ZIPF_EXPONENT);
    byte[] value = new byte[valueBytes];
    ThreadLocalRandom.current().nextBytes(value);
    try (Table t = conn.getTable(table)) {
      while (!stop) {
        byte[] row = keys.row(zipf.sample() - 1);
        boolean read = rng.nextInt(100) < readPercent;
        long start = System.nanoTime();
        try {
          if (read) {
            t.get(new Get(row));
          } else {
            value[rng.nextInt(valueBytes)] = (byte) rng.nextInt();
            t.put(new Put(row).addColumn(KeySpace.FAMILY, KeySpace.QUALIFIER, value));
          }
          recorder.recordValue(Math.max(1, (System.nanoTime() - start) / 1_000));
        } catch (IOException | RuntimeException e) {
          errors.incrementAndGet();
        }
      }
    } catch (IOException e) {
      errors.incrementAndGet();
    }
  }

  private void sample() {
    Histogram h = null;
    long lastErrors = 0;
    long next = startNanos;
    while (!stop) {
      next += TimeUnit.SECONDS.toNanos(1);
      long wait = next - System.nanoTime();
      if (wait > 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(wait);
      }
      if (stop) {
        break; // a partial last second would read as a dip
      }
      h = recorder.getIntervalHistogram(h);
      long e = errors.get();
      Second s = new Second((System.nanoTime() - startNanos) / 1e9, System.currentTimeMillis(), h.getTotalCount(),
          e - lastErrors, h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getMaxValue() / 1e3);
      lastErrors = e;
      synchronized (seconds) {
        seconds.add(s);
      }
    }
  }

  /** The seconds sampled so far. */
  List<Second> seconds() {
    synchronized (seconds) {
      return new ArrayList<>(seconds);
    }
  }

  long startEpochMillis() {
    return startEpochMillis;
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    for (Thread t : threads) {
      t.join(60_000);
    }
    sampler.join(5_000);
  }
}
