package io.basalt.server.master;

import io.basalt.server.master.protocol.Action;
import io.basalt.server.master.protocol.Result;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the parts of an {@link Action.InParallel} at once, each on a thread of its own, and waits for all of
 * them: a part that fails does not cut the others short (each ends in a state its retry or undo expects).
 */
final class ParallelParts {
  /** How the driver executes one part. */
  interface PartRunner {
    Result execute(Action part) throws IOException;
  }

  private final ExecutorService threads = Executors.newCachedThreadPool(new ThreadFactory() {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, "protocol-part-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    }
  });

  /** The parts' results in order; the first part's failure (by order) if any failed, the others suppressed. */
  Result run(Action.InParallel p, PartRunner runner) throws IOException {
    List<Future<Result>> running = new ArrayList<>();
    for (Action part : p.parts()) {
      running.add(threads.submit(() -> runner.execute(part)));
    }
    List<Result> results = new ArrayList<>();
    IOException failure = null;
    for (int i = 0; i < running.size(); i++) {
      try {
        results.add(running.get(i).get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        running.forEach(f -> f.cancel(true));
        throw new java.io.InterruptedIOException("interrupted while running " + p.parts().size() + " parts");
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable cause = e.getCause();
        IOException wrapped = cause instanceof IOException io ? io
            : new IOException(p.parts().get(i).getClass().getSimpleName() + " on " + p.parts().get(i).site()
                + " failed: " + cause, cause);
        if (failure == null) {
          failure = wrapped;
        } else {
          failure.addSuppressed(wrapped);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return new Result.Each(results);
  }
}
