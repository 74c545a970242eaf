package io.basalt.storage.region;

import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.nio.file.Path;

/**
 * Opens region stores of one process, all sharing one cache. Each region lives in its own directory.
 */
public interface StorageEngine extends AutoCloseable {
  /** Creates a region in an empty or missing directory. */
  Region create(Path dir, RegionDescriptor descriptor);

  /** Opens an existing region as it was last closed (or crashed). */
  Region open(Path dir);

  /**
   * Makes {@code target} a copy of the closed region in {@code source} without copying its data: closed
   * segments are hard-linked (they are immutable), only the open tail segment is copied. Both directories
   * stay usable independently. Returns the bytes copied.
   */
  long cloneClosed(Path source, Path target);

  /**
   * Opens a clone as the region of the narrower key range {@code range}; keys outside it are hidden at
   * once and removed in the background by {@link Region#maintain()}.
   */
  Region openRestricted(Path dir, KeyRange range);

  @Override
  void close();
}
