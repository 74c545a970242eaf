package io.basalt.bench.storage;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one operation in a loop on N threads: first a warm-up, then a fixed measured interval. Only the
 * operations completed inside the interval count; the process's CPU time and read bytes over the same
 * interval are charged to them.
 */
final class RateRunner {
  /** One operation of a worker; it may keep per-thread state (a value buffer, say). */
  interface Op {
    void run() throws Exception;
  }

  /** Makes worker {@code thread}'s operation; called on the main thread before the workers start. */
  interface OpFactory {
    Op create(int thread);
  }

  /** Each worker's counter in its own cache line, so counting costs no sharing. */
  private static final int STRIDE = 16;

  private RateRunner() {}

  static Rate measure(int threads, double warmupSeconds, double measureSeconds, OpFactory factory)
      throws InterruptedException {
    AtomicLongArray done = new AtomicLongArray(threads * STRIDE);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] workers = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      Op op = factory.create(i);
      int slot = i * STRIDE;
      workers[i] = new Thread(() -> {
        long n = 0;
        try {
          while (!stop.get()) {
            op.run();
            done.lazySet(slot, ++n);
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
          stop.set(true);
        }
      }, "bench-worker-" + i);
    }
    for (Thread t : workers) {
      t.start();
    }
    long ops0;
    long cpu0;
    long read0;
    long t0;
    long t1;
    long ops1;
    long cpu1;
    long read1;
    try {
      sleep(warmupSeconds, failure);
      ops0 = sum(done, threads);
      cpu0 = ProcessStats.cpuNanos();
      read0 = ProcessStats.readBytes();
      t0 = System.nanoTime();
      sleep(measureSeconds, failure);
      t1 = System.nanoTime();
      ops1 = sum(done, threads);
      cpu1 = ProcessStats.cpuNanos();
      read1 = ProcessStats.readBytes();
    } finally {
      stop.set(true);
      for (Thread t : workers) {
        t.join();
      }
    }
    if (failure.get() != null) {
      throw new BenchFailure("a worker failed", failure.get());
    }
    long read = read0 < 0 || read1 < 0 ? -1 : read1 - read0;
    return new Rate(threads, ops1 - ops0, t1 - t0, cpu1 - cpu0, read);
  }

  private static long sum(AtomicLongArray done, int threads) {
    long s = 0;
    for (int i = 0; i < threads; i++) {
      s += done.get(i * STRIDE);
    }
    return s;
  }

  /** Sleeps for {@code seconds}; throws as soon as a worker has failed. */
  private static void sleep(double seconds, AtomicReference<Throwable> failure) throws InterruptedException {
    long deadline = System.nanoTime() + (long) (seconds * 1e9);
    while (failure.get() == null) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      Thread.sleep(Math.max(1, Math.min(left / 1_000_000, 50)));
    }
    throw new BenchFailure("a worker failed", failure.get());
  }
}
