package io.basalt.storage;

import java.util.function.LongSupplier;

/**
 * Settings of one process's storage engine. Every region of the process shares one cache of
 * {@code cacheBytes} (HBase's block cache equivalent): a quarter in the Java heap, the rest off it.
 *
 * @param cacheBytes shared B+-tree cache size, in bytes
 * @param logFileBytes size at which a region's log rolls to a new segment file
 * @param asyncFlushMillis how often ASYNC_WAL/SKIP_WAL writes are pushed to the OS
 * @param freeDiskBytes writes are refused (StorageFullException) when free disk space falls below this
 * @param purgeIntervalMillis how often each region's background purge runs (0 = never, tests call it)
 * @param collectorKeysPerSecond rate cap of the out-of-range collector, to bound its impact on serving
 * @param clock milliseconds since the epoch; HBase's "now" for timestamps and TTL
 */
public record StorageConfig(long cacheBytes, long logFileBytes, long asyncFlushMillis, long freeDiskBytes,
    long purgeIntervalMillis, int collectorKeysPerSecond, LongSupplier clock) {
  public static final StorageConfig DEFAULT =
      new StorageConfig(256L << 20, 10L << 20, 1000, 256L << 20, 10 * 60_000L, 50_000, System::currentTimeMillis);

  public StorageConfig {
    if (cacheBytes < (1 << 20)) {
      throw new IllegalArgumentException("cacheBytes must be at least 1 MiB");
    }
    if (logFileBytes < (1 << 20)) {
      throw new IllegalArgumentException("logFileBytes must be at least 1 MiB");
    }
    if (collectorKeysPerSecond < 1) {
      throw new IllegalArgumentException("collectorKeysPerSecond must be positive");
    }
  }

  /**
   * The part of the cache in the Java heap: the B+-tree's internal nodes and the records in use. The rest is
   * JE's off-heap cache, records and nodes kept as bytes outside the heap. Measured (docs/benchmarks.md): with
   * the whole cache in the heap, ZGC traced it on every cycle and fell behind buffered writes at 8 threads
   * (12-22 s of allocation stalls in 15 s runs, 2 GB heap, 512 MB cache); with a quarter in it, under 1 s.
   */
  public long heapCacheBytes() {
    return Math.max(cacheBytes / 4, Math.min(cacheBytes, MIN_HEAP_CACHE_BYTES));
  }

  /** The part of the cache outside the Java heap: the process uses this much memory beyond -Xmx. */
  public long offHeapCacheBytes() {
    return cacheBytes - heapCacheBytes();
  }

  private static final long MIN_HEAP_CACHE_BYTES = 16L << 20;

  public StorageConfig withCacheBytes(long v) {
    return new StorageConfig(v, logFileBytes, asyncFlushMillis, freeDiskBytes, purgeIntervalMillis, collectorKeysPerSecond, clock);
  }

  public StorageConfig withLogFileBytes(long v) {
    return new StorageConfig(cacheBytes, v, asyncFlushMillis, freeDiskBytes, purgeIntervalMillis, collectorKeysPerSecond, clock);
  }

  public StorageConfig withFreeDiskBytes(long v) {
    return new StorageConfig(cacheBytes, logFileBytes, asyncFlushMillis, v, purgeIntervalMillis, collectorKeysPerSecond, clock);
  }

  public StorageConfig withPurgeIntervalMillis(long v) {
    return new StorageConfig(cacheBytes, logFileBytes, asyncFlushMillis, freeDiskBytes, v, collectorKeysPerSecond, clock);
  }

  public StorageConfig withCollectorKeysPerSecond(int v) {
    return new StorageConfig(cacheBytes, logFileBytes, asyncFlushMillis, freeDiskBytes, purgeIntervalMillis, v, clock);
  }

  public StorageConfig withClock(LongSupplier c) {
    return new StorageConfig(cacheBytes, logFileBytes, asyncFlushMillis, freeDiskBytes, purgeIntervalMillis, collectorKeysPerSecond, c);
  }
}
