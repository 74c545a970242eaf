package io.basalt.bench.storage;

import io.basalt.storage.mutation.Durability;
import io.basalt.storage.region.Region;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** Fills a region with rows {@code 0 .. rows-1}, each thread writing its own contiguous slice in key order. */
final class Loader {
  private Loader() {}

  /** Returns the nanoseconds the load took. */
  static long load(Region region, long rows, int threads, Durability durability, int valueBytes, PrintStream out)
      throws InterruptedException {
    AtomicLong loaded = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] workers = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      long from = rows * i / threads;
      long to = rows * (i + 1) / threads;
      workers[i] = new Thread(() -> {
        byte[] value = Keys.value(valueBytes);
        try {
          for (long k = from; k < to && failure.get() == null; k++) {
            region.mutate(Keys.put(k, value), durability);
            loaded.incrementAndGet();
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }, "bench-loader-" + i);
    }
    long start = System.nanoTime();
    for (Thread t : workers) {
      t.start();
    }
    long nextReport = start + 15_000_000_000L;
    for (Thread t : workers) {
      while (t.isAlive()) {
        t.join(200);
        if (System.nanoTime() > nextReport) {
          out.printf("    ... %,d of %,d rows loaded%n", loaded.get(), rows);
          nextReport += 15_000_000_000L;
        }
      }
    }
    if (failure.get() != null) {
      throw new BenchFailure("loading failed after " + loaded.get() + " rows", failure.get());
    }
    return System.nanoTime() - start;
  }
}
