package io.basalt.bench.compare.launch;

import java.nio.file.Path;

/**
 * What both launched servers get alike: the same heap, and the same cache (Basalt's JE cache, HBase's block cache).
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
}
