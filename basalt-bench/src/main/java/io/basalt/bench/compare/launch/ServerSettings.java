package io.basalt.bench.compare.launch;

import io.basalt.storage.StorageConfig;
import java.nio.file.Path;

/**
 * What both launched servers get alike: the same memory, and the same cache (Basalt's JE cache, HBase's block
 * cache). HBase keeps its block cache in the heap; Basalt keeps three quarters of its cache off the heap, so its
 * heap is smaller by that much ({@link #basaltHeapMb}).
 *
 * @param workDir where data directories and logs go (one subdirectory per target)
 * @param jfr record a JFR profile of the Basalt server into its log directory
 */
public record ServerSettings(int heapMb, int cacheMb, Path workDir, boolean jfr) {
  public ServerSettings {
    if (cacheMb <= 0 || heapMb <= 0 || cacheMb * 2 > heapMb) {
      throw new IllegalArgumentException("need 0 < cache (" + cacheMb + " MB) <= heap/2 (" + heapMb + " MB)");
    }
  }

  /** -Xmx of a Basalt server: {@code heapMb} less the part of its cache that lives off the heap. */
  public int basaltHeapMb() {
    return basaltHeapMb(heapMb, cacheMb);
  }

  public static int basaltHeapMb(int heapMb, int cacheMb) {
    return heapMb - (int) (StorageConfig.DEFAULT.withCacheBytes((long) cacheMb << 20).offHeapCacheBytes() >> 20);
  }
}
