package io.basalt.server.regionserver;

import io.basalt.storage.region.Compaction;
import io.basalt.storage.region.Region;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse.CompactionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HBase's flush and compaction requests on this server's regions. A flush forces the region's log to disk in
 * the caller's thread (HBase's flush also returns once done). A compaction is queued and runs on one
 * background thread, as HBase's compaction requests return at once; while queued or running the region
 * reports its compaction state, so {@code Admin.getCompactionState} waits are real.
 */
public final class RegionCompactions implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionCompactions.class);

  private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "region-compactions");
    t.setDaemon(true);
    return t;
  });
  /** Regions with a compaction queued, by encoded name: true for a major one. */
  private final Map<String, Boolean> queued = new ConcurrentHashMap<>();
  /** Regions being compacted now; a request meanwhile queues another run, as HBase's would. */
  private final Map<String, Boolean> running = new ConcurrentHashMap<>();
  private final AtomicLong flushes = new AtomicLong();
  private final AtomicLong compactions = new AtomicLong();
  private final AtomicLong entriesRemoved = new AtomicLong();
  private final AtomicLong bytesReclaimed = new AtomicLong();

  void flush(String encodedName, Region store) {
    long start = System.nanoTime();
    store.flush();
    flushes.incrementAndGet();
    LOG.info("flushed {}: log synced to disk in {} ms", encodedName, (System.nanoTime() - start) / 1_000_000);
  }

  /** Queues a compaction of the region unless one is already queued (a major one is not downgraded). */
  void request(String encodedName, Region store, boolean major) {
    boolean[] first = {false};
    queued.compute(encodedName, (k, v) -> {
      first[0] = v == null;
      return v == null ? major : v || major;
    });
    if (!first[0]) {
      return;
    }
    try {
      worker.execute(() -> run(encodedName, store));
    } catch (RejectedExecutionException e) {
      queued.remove(encodedName);
      throw new IllegalStateException("the region server is stopping: compaction of " + encodedName + " refused");
    }
  }

  private void run(String encodedName, Region store) {
    boolean[] major = {false};
    boolean[] found = {false};
    // Atomically from queued to running, so the region never reads as idle in between.
    queued.computeIfPresent(encodedName, (k, v) -> {
      running.put(k, v);
      major[0] = v;
      found[0] = true;
      return null;
    });
    if (!found[0]) {
      return;
    }
    try {
      Compaction c = store.compact(major[0]);
      compactions.incrementAndGet();
      entriesRemoved.addAndGet(c.entriesRemoved());
      bytesReclaimed.addAndGet(Math.max(0, c.logBytesBefore() - c.logBytesAfter()));
      LOG.info("{} compaction of {}: purged {} entries, log {} -> {} bytes, {} ms", major[0] ? "major" : "minor",
          encodedName, c.entriesRemoved(), c.logBytesBefore(), c.logBytesAfter(), c.millis());
    } catch (RuntimeException e) {
      LOG.warn("compaction of {} failed", encodedName, e); // as HBase: a failed compaction is logged, not raised
    } finally {
      running.remove(encodedName);
    }
  }

  CompactionState state(String encodedName) {
    Boolean now = running.get(encodedName);
    Boolean next = queued.get(encodedName);
    if (now == null && next == null) {
      return CompactionState.NONE;
    }
    return Boolean.TRUE.equals(now) || Boolean.TRUE.equals(next) ? CompactionState.MAJOR : CompactionState.MINOR;
  }

  public long flushes() {
    return flushes.get();
  }

  public long compactions() {
    return compactions.get();
  }

  public long entriesRemoved() {
    return entriesRemoved.get();
  }

  public long bytesReclaimed() {
    return bytesReclaimed.get();
  }

  @Override
  public void close() {
    worker.shutdownNow();
  }
}
