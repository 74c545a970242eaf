package io.basalt.bench.storage;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.mutation.Durability;
import java.util.List;

/**
 * What one run measures, resolved from the command line (sizes in MB = 2^20 bytes of value data).
 *
 * @param readCacheMb JE cache of the get and scan runs
 * @param fitMb data of the get/scan run that fits in that cache
 * @param bigMb data of the get/scan run larger than that cache
 * @param writeCacheMb JE cache of the put and split runs
 * @param putBatch puts per batch of the batched put figure (0: none)
 * @param splitMb region sizes of the split (midpoint, clone) runs
 */
record Settings(double warmupSeconds, double seconds, int valueBytes, List<Integer> threads, Durability durability,
    Durability loadDurability, int loadThreads, long readCacheMb, long fitMb, long bigMb, long writeCacheMb,
    int putBatch, List<Long> splitMb, long logFileMb) {
  static final long MB = 1L << 20;

  /** The engine settings of a run: the given cache, no scheduled purge (it would run during measurements). */
  StorageConfig config(long cacheMb) {
    return StorageConfig.DEFAULT.withCacheBytes(cacheMb * MB).withLogFileBytes(logFileMb * MB).withPurgeIntervalMillis(0);
  }

  /** Rows whose values add up to {@code mb}. */
  long rowsFor(long mb) {
    return mb * MB / valueBytes;
  }
}
