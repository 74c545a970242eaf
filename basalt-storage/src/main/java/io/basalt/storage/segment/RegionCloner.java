package io.basalt.storage.segment;

import io.basalt.storage.error.StorageException;
import io.basalt.storage.io.StorageFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Clones a closed region directory: every log segment but the last is immutable and is hard-linked (a
 * link is as good as a copy-on-write clone for a file nobody will change); the last segment is the one the
 * clone will append to, so it is copied. Cost: one link per segment plus one segment's bytes, whatever the
 * region's size.
 */
public final class RegionCloner {
  private RegionCloner() {}

  /** Returns the number of bytes copied (the tail segment). */
  public static long cloneClosed(StorageFiles files, Path source, Path target) {
    try {
      List<Path> segments = files.listSegments(source);
      if (segments.isEmpty()) {
        throw new StorageException("no log segments in " + source);
      }
      if (!files.isEmptyOrMissing(target)) {
        throw new StorageException("clone target " + target + " is not empty");
      }
      files.createDirectories(target);
      try {
        for (int i = 0; i < segments.size() - 1; i++) {
          Path s = segments.get(i);
          files.hardLink(s, target.resolve(s.getFileName()));
        }
        Path tail = segments.get(segments.size() - 1);
        files.copy(tail, target.resolve(tail.getFileName()));
        return files.size(tail);
      } catch (IOException | RuntimeException e) {
        files.deleteRecursively(target);
        throw e;
      }
    } catch (IOException e) {
      throw new StorageException("cloning " + source + " to " + target + " failed: " + e.getMessage(), e);
    }
  }
}
