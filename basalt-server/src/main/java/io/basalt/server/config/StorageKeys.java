package io.basalt.server.config;

/** The storage engine of a region server (all its regions share it). */
public final class StorageKeys {
  private StorageKeys() {}

  public static final ConfigKey<Long> CACHE_BYTES = ConfigKey.bytes("basalt.storage.cache.size", 256L << 20, 1L << 20,
      "Size of the B+-tree cache shared by every region of the process (k/m/g suffixes allowed). It plays the "
          + "part of HBase's block cache, but is a size, not hfile.block.cache.size's fraction of the heap; "
          + "keep it well under the heap (-Xmx).");

  public static final ConfigKey<Integer> WARMUP_ROUNDS = ConfigKey.integer("basalt.storage.warmup.rounds", 3, 0, 100,
      "Rounds of the region open, split and reopen path a region server runs on a throwaway region before it "
          + "registers, so that the first region it opens for a move or split is compiled code (a fresh JVM's first "
          + "open took 5-15x longer, inside a window clients wait through). About 1-4 s of start-up; 0 skips it.");
}
