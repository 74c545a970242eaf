package io.basalt.server.regionserver;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Independent tasks of one call run by the calling thread, with helper threads taking tasks too when a core is
 * free. A Multi's region actions are such tasks: each region's batch is its own JE environment and log, and one
 * handler applying them one after another leaves the other cores idle while a single-threaded client waits.
 *
 * <p>The caller takes tasks itself until none is left, so a helper that never starts (every helper busy with
 * other calls) delays nothing: it finds no task left when it runs. The caller then waits only for tasks a
 * helper took and is still running.
 */
final class SharedWork {
  private static final int HELPERS = Math.max(0, Runtime.getRuntime().availableProcessors() - 1);
  private static final Executor POOL = helperPool();

  private SharedWork() {}

  private static Executor helperPool() {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(Math.max(1, HELPERS), Math.max(1, HELPERS), 30,
        TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "shared-work-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** Runs every task, in parallel where helpers are free; rethrows the first task's failure after all ended. */
  static void runAll(Runnable[] tasks) {
    runAll(tasks, POOL, HELPERS);
  }

  static void runAll(Runnable[] tasks, Executor helpers, int maxHelpers) {
    AtomicInteger next = new AtomicInteger();
    CountDownLatch ended = new CountDownLatch(tasks.length);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Runnable worker = () -> {
      for (int i = next.getAndIncrement(); i < tasks.length; i = next.getAndIncrement()) {
        try {
          tasks[i].run();
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        } finally {
          ended.countDown();
        }
      }
    };
    for (int h = 0; h < Math.min(maxHelpers, tasks.length - 1); h++) {
      try {
        helpers.execute(worker);
      } catch (RejectedExecutionException full) {
        break;
      }
    }
    worker.run();
    // Uninterruptibly: the helpers' tasks write into this call's state, and each ends on its own.
    boolean interrupted = false;
    while (true) {
      try {
        ended.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    Throwable t = failure.get();
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    if (t != null) {
      throw new IllegalStateException(t);
    }
  }
}
