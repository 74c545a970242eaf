package io.basalt.server.regionserver;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.client.Result;

/**
 * Reads a scanner's next batch while its client is busy with the last one. The HBase client asks for a batch, turns
 * it into Results and hands them to the application before it asks again, and the server sat idle meanwhile; now a
 * helper thread reads ahead, and the next call only answers. A scanner reads ahead once its client has come back for
 * a second batch (a client that takes only the first, as YCSB's scans, costs no read it did not want), never with a
 * row limit (the next call's limit is not known yet) and never past the end of its region or its filter.
 *
 * <p>Nothing read ahead is dropped: the next call returns it whatever it asks, as a call returning that batch
 * directly would have. The region-done and complete flags the caller reads after a call are those of the batch it
 * got, not of a read ahead still running. A read ahead that no helper started yet is run by the call that needs it,
 * so under load (every core busy) scans read as before.
 */
final class PrefetchingCursor implements ResultCursor {
  private static final Executor HELPERS = helperPool();

  /** A batch and the scanner's state right after it was read. */
  private record Batch(List<Result> results, boolean regionDone, boolean scanComplete, boolean filterDone) {}

  private final ResultCursor scanner;
  private final Executor helpers;
  /** The next batch, read ahead or being read; null when none is. */
  private FutureTask<Batch> ahead;
  /** The batch the last call returned, whose flags the caller reads. */
  private volatile Batch last = new Batch(List.of(), false, false, false);
  private int calls;
  private boolean closed;

  PrefetchingCursor(ResultCursor scanner) {
    this(scanner, HELPERS);
  }

  PrefetchingCursor(ResultCursor scanner, Executor helpers) {
    this.scanner = scanner;
    this.helpers = helpers;
  }

  private static Executor helperPool() {
    int threads = Runtime.getRuntime().availableProcessors();
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "scan-read-ahead-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  @Override
  public synchronized List<Result> next(int rows, long maxBytes, boolean cutRows, long deadlineNanos, int maxNewRows)
      throws IOException {
    Batch batch = takeAhead();
    if (batch == null || batch.results().isEmpty() && !batch.regionDone()) {
      // Nothing read ahead, or a read ahead that ran out of time before it found a row.
      batch = read(rows, maxBytes, cutRows, deadlineNanos, maxNewRows);
    }
    last = batch;
    calls++;
    if (calls >= 2 && maxNewRows == 0 && !closed && !batch.regionDone() && !batch.scanComplete()
        && !batch.filterDone()) {
      readAhead(rows, maxBytes, cutRows, deadlineNanos == Long.MAX_VALUE ? -1 : deadlineNanos - System.nanoTime());
    }
    return batch.results();
  }

  /** {@code timeNanos}: the read's time budget, as the call's (negative: none). */
  private void readAhead(int rows, long maxBytes, boolean cutRows, long timeNanos) {
    FutureTask<Batch> task = new FutureTask<>(() -> read(rows, maxBytes, cutRows,
        timeNanos < 0 ? Long.MAX_VALUE : System.nanoTime() + Math.max(0, timeNanos), 0));
    ahead = task;
    try {
      helpers.execute(task);
    } catch (RejectedExecutionException shuttingDown) {
      // The next call runs it.
    }
  }

  private Batch read(int rows, long maxBytes, boolean cutRows, long deadlineNanos, int maxNewRows) throws IOException {
    List<Result> results = scanner.next(rows, maxBytes, cutRows, deadlineNanos, maxNewRows);
    return new Batch(results, scanner.regionDone(), scanner.scanComplete(), scanner.filterDone());
  }

  /** The batch read ahead, waiting for it if a helper is still reading it, or reading it here if none started. */
  private Batch takeAhead() throws IOException {
    FutureTask<Batch> task = ahead;
    if (task == null) {
      return null;
    }
    ahead = null;
    task.run(); // does nothing if a helper has started it
    boolean interrupted = false;
    try {
      while (true) {
        try {
          // Uninterruptibly: the batch is the scanner's next rows, and giving up on it would skip them.
          return task.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof IOException io) {
            throw io;
          }
          if (cause instanceof RuntimeException r) {
            throw r;
          }
          throw (Error) cause;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean regionDone() {
    return last.regionDone();
  }

  @Override
  public boolean scanComplete() {
    return last.scanComplete();
  }

  @Override
  public boolean filterDone() {
    return last.filterDone();
  }

  @Override
  public boolean stale() {
    return scanner.stale();
  }

  @Override
  public void close() {
    FutureTask<Batch> task;
    synchronized (this) {
      closed = true;
      task = ahead;
      ahead = null;
    }
    if (task != null) {
      task.cancel(false); // one a helper is reading finishes; the scanner's close waits for it
    }
    scanner.close();
  }
}
