package io.basalt.server.regionserver;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Remembers the outcome of non-idempotent operations (increment, append) by the client's nonce, so a retry
 * of one that already succeeded returns the first answer instead of applying twice.
 */
final class Nonces {
  private record Key(long group, long nonce) {}

  private record Entry(Object outcome, long atNanos) {}

  private static final long KEEP_NANOS = TimeUnit.MINUTES.toNanos(30);
  private final Map<Key, Entry> seen = new ConcurrentHashMap<>();

  /** The remembered outcome, or null if this nonce was not seen (nonce 0 means "none"). */
  Object outcome(long group, long nonce) {
    if (nonce == 0) {
      return null;
    }
    Entry e = seen.get(new Key(group, nonce));
    return e == null ? null : e.outcome;
  }

  void remember(long group, long nonce, Object outcome) {
    if (nonce == 0) {
      return;
    }
    long now = System.nanoTime();
    seen.put(new Key(group, nonce), new Entry(outcome, now));
    if (seen.size() > 100_000) {
      seen.values().removeIf(e -> now - e.atNanos > KEEP_NANOS);
    }
  }
}
