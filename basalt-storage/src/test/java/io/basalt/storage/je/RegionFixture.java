package io.basalt.storage.je;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Test helper: an engine with a settable clock and a region with families f1 and f2. */
public final class RegionFixture implements AutoCloseable {
  public final AtomicLong clock = new AtomicLong(1_000_000L);
  public final JeStorageEngine engine;
  public final Path dir;

  public RegionFixture(Path dir) {
    this(dir, StorageConfig.DEFAULT.withCacheBytes(64L << 20).withPurgeIntervalMillis(0));
  }

  public RegionFixture(Path dir, StorageConfig config) {
    this.dir = dir;
    this.engine = new JeStorageEngine(config.withClock(clock::get));
  }

  public Region create(FamilySchema... families) {
    return engine.create(dir.resolve("region"), new RegionDescriptor(List.of(families), KeyRange.ALL));
  }

  /** A region named {@code name} in region format {@code formatVersion} (1: cell records, 2: row records). */
  public Region createInFormat(int formatVersion, String name, FamilySchema... families) {
    return engine.create(dir.resolve(name), new RegionDescriptor(List.of(families), KeyRange.ALL), formatVersion);
  }

  public Region create(String name, KeyRange range, FamilySchema... families) {
    return engine.create(dir.resolve(name), new RegionDescriptor(List.of(families), range));
  }

  @Override
  public void close() {
    engine.close();
  }
}
