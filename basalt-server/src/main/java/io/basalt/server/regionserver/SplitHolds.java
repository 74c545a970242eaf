package io.basalt.server.regionserver;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Writes to a replicated region this server sealed for a split (or a merge), held until its daughters (or the
 * merged region) take writes.
 *
 * <p>Why: refused at once, a write is retried by the stock client on its fixed backoff (0.1, 0.3, 0.6, 1.1, 2.1,
 * 4.1, 8.1 s after the first refusal), so a region unavailable for 3 s costs a writer 4.1 s. Held, it is refused
 * only when the daughters are open, and the client's first retry (100 ms later) finds them.
 *
 * <p>A hold starts when the primary is sealed and ends when a member of one of its daughters opens on this server
 * (the split opens the daughters' other members only after both founders are open, so the daughters take writes
 * by then), when the split is undone (writes go on here), or after {@link #MAX} by default (a master that died mid-split:
 * the writers fall back to the client's retries).
 */
final class SplitHolds {
  /** The longest a write is held: well past a split's usual few seconds, well under the client's 60 s timeout. */
  static final Duration MAX = Duration.ofSeconds(10);

  private record Hold(RegionInfo parent, CountDownLatch released, long deadlineNanos) {}

  private final Map<String, Hold> holds = new ConcurrentHashMap<>();
  private final Duration max;

  SplitHolds(Duration max) {
    this.max = max;
  }

  void hold(RegionInfo parent) {
    holds.put(parent.getEncodedName(), new Hold(parent, new CountDownLatch(1), System.nanoTime() + max.toNanos()));
  }

  void release(RegionInfo parent) {
    Hold h = holds.remove(parent.getEncodedName());
    if (h != null) {
      h.released().countDown();
    }
  }

  /**
   * Ends the hold of the region {@code daughter} was split from, if this server holds its writes. A merged region's
   * member is not inside either region it replaces: their holds end when they are dropped, after the merged region
   * is published (a write refused before that would find the old region in meta again, and back off).
   */
  void daughterOpened(RegionInfo daughter) {
    holds.values().stream()
        .filter(h -> h.parent().getTable().equals(daughter.getTable()) && h.parent().containsRow(daughter.getStartKey())
            && (h.parent().getEndKey().length == 0 || daughter.getEndKey().length > 0
                && Bytes.compareTo(daughter.getEndKey(), h.parent().getEndKey()) <= 0)
            && !h.parent().getEncodedName().equals(daughter.getEncodedName()))
        .toList()
        .forEach(h -> release(h.parent()));
  }

  /** Waits while writes to the region {@code encoded} are held; returns at once when they are not. */
  void await(String encoded) throws InterruptedIOException {
    Hold h = holds.get(encoded);
    if (h == null) {
      return;
    }
    long left = h.deadlineNanos() - System.nanoTime();
    try {
      if (left <= 0 || !h.released().await(left, TimeUnit.NANOSECONDS)) {
        holds.remove(encoded, h);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while writes to " + Bytes.toStringBinary(h.parent()
          .getRegionName()) + " are held for its split");
    }
  }
}
