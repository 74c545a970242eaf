package io.basalt.server.config;

/** When a region server asks the master to split one of its regions. */
public final class SplitKeys {
  private SplitKeys() {}

  public static final ConfigKey<Long> MAX_REGION_BYTES = ConfigKey.bytes("hbase.hregion.max.filesize", 2L << 30,
      1L << 20, "A region is split once its log segments on disk pass this size (a table's MAX_FILESIZE "
          + "overrides it). HBase's default is 10g; Basalt splits sooner because a split is cheap (hard links).");

  public static final ConfigKey<Long> MAX_REGION_CELLS = ConfigKey.count("basalt.split.max.cells", 20_000_000, 2,
      "A region is split once it holds this many entries (cell versions and delete markers).");

  public static final ConfigKey<Long> CHECK_INTERVAL = ConfigKey.millis("basalt.split.check.interval", 10_000, 100,
      "How often, in ms, a region server checks its regions against the split thresholds.");
}
