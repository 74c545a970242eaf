package io.basalt.server.regionserver;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs non-idempotent operations (increment, append) at most once per client nonce. A retry of one that
 * succeeded gets the first answer; a retry arriving while the first attempt still runs (the client timed
 * out) waits for it instead of applying twice. A failed attempt is forgotten, so its retry runs.
 */
final class Nonces {
  private record Key(long group, long nonce) {}

  private record Entry(CompletableFuture<Object> outcome, long atNanos) {}

  @FunctionalInterface
  interface Operation<T> {
    T run() throws IOException;
  }

  private static final long KEEP_NANOS = TimeUnit.MINUTES.toNanos(30);
  private final Map<Key, Entry> seen = new ConcurrentHashMap<>();

  @SuppressWarnings("unchecked")
  <T> T once(long group, long nonce, Operation<T> operation) throws IOException {
    if (nonce == 0) {
      return operation.run();
    }
    Key key = new Key(group, nonce);
    CompletableFuture<Object> mine = new CompletableFuture<>();
    Entry existing = seen.putIfAbsent(key, new Entry(mine, System.nanoTime()));
    if (existing != null) {
      try {
        return (T) existing.outcome().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for the first attempt of nonce " + nonce);
      } catch (ExecutionException e) {
        return once(group, nonce, operation);
      }
    }
    try {
      T result = operation.run();
      mine.complete(result);
      expireOld();
      return result;
    } catch (IOException | RuntimeException e) {
      seen.remove(key);
      mine.completeExceptionally(e);
      throw e;
    }
  }

  private void expireOld() {
    if (seen.size() > 100_000) {
      long now = System.nanoTime();
      seen.values().removeIf(e -> e.outcome().isDone() && now - e.atNanos() > KEEP_NANOS);
    }
  }
}
