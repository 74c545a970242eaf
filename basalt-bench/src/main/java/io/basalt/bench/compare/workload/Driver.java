package io.basalt.bench.compare.workload;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;

/**
 * Runs one measured run: every client thread calls its worker until its share is done or the time budget is
 * spent, timing each operation; the run's time ends when the last thread has flushed and closed.
 */
public final class Driver {
  private Driver() {}

  /** What the client saw: operations, errors, wall time and the merged latency histogram (nanoseconds). */
  public record Outcome(long ops, long errors, long elapsedNanos, Histogram latency) {}

  public static Outcome drive(Workload.Run run, int threads, Duration budget) throws IOException, InterruptedException {
    List<Workload.Worker> workers = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        workers.add(run.worker(t));
      }
    } catch (IOException | RuntimeException e) {
      for (Workload.Worker w : workers) {
        closeQuietly(w);
      }
      throw e;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<long[]>> results = new ArrayList<>();
      Histogram[] histograms = new Histogram[threads];
      for (int t = 0; t < threads; t++) {
        Workload.Worker worker = workers.get(t);
        Histogram h = new Histogram(3);
        histograms[t] = h;
        results.add(pool.submit(() -> {
          start.await();
          long deadline = System.nanoTime() + budget.toNanos();
          long ops = 0;
          try (worker) {
            while (System.nanoTime() < deadline) {
              long t0 = System.nanoTime();
              if (!worker.next()) {
                break;
              }
              h.recordValue(Math.max(1, System.nanoTime() - t0));
              ops++;
            }
          }
          return new long[] {ops, worker.errors()};
        }));
      }
      long began = System.nanoTime();
      start.countDown();
      long ops = 0;
      long errors = 0;
      for (Future<long[]> f : results) {
        long[] r = f.get();
        ops += r[0];
        errors += r[1];
      }
      long elapsed = System.nanoTime() - began;
      Histogram merged = new Histogram(3);
      for (Histogram h : histograms) {
        merged.add(h);
      }
      return new Outcome(ops, errors, elapsed, merged);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException("a client thread failed: " + cause, cause);
    } finally {
      pool.shutdownNow();
    }
  }

  private static void closeQuietly(Workload.Worker w) {
    try {
      w.close();
    } catch (IOException | RuntimeException ignored) {
      // already failing
    }
  }
}
