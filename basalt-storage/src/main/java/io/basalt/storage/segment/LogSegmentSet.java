package io.basalt.storage.segment;

import java.nio.file.Path;
import java.util.List;

/**
 * An immutable set of a live region's log segment files, each file closed for writing. While the set is
 * open the engine will not delete or change these files, so they can be copied or linked safely.
 */
public interface LogSegmentSet extends AutoCloseable {
  /** Files in log order (oldest first). */
  List<Path> files();

  /** Number of the newest segment in the set (for an incremental set later), -1 if empty. */
  long lastSegment();

  long totalBytes();

  /** Lets the engine clean these segments again. */
  @Override
  void close();
}
