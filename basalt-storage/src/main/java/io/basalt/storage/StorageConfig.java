package io.basalt.storage;

import java.util.function.LongSupplier;

/**
 * Settings of one process's storage engine. Every region of the process shares one cache of
 * {@code cacheBytes} (HBase's block cache equivalent).
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
