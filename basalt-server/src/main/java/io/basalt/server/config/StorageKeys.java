package io.basalt.server.config;

/** The storage engine of a region server (all its regions share it). */
public final class StorageKeys {
  private StorageKeys() {}

  public static final ConfigKey<Long> CACHE_BYTES = ConfigKey.bytes("basalt.storage.cache.size", 256L << 20, 1L << 20,
      "Size of the B+-tree cache shared by every region of the process (k/m/g suffixes allowed). It plays the "
          + "part of HBase's block cache, but is a size, not hfile.block.cache.size's fraction of the heap. A "
          + "quarter of it (at least 16 MB) is in the heap and the rest off it, where the garbage collector does "
          + "not trace it: the process uses the heap (-Xmx) plus three quarters of this size.");
}
