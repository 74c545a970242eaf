package io.basalt.storage.segment;

import io.basalt.storage.error.StorageException;
import io.basalt.storage.io.StorageFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Every log segment of a closed region directory. Nothing writes a closed directory, so the set only has
 * to keep its engine from opening the directory again while it is in use ({@code onClose} lifts that).
 */
public final class ClosedSegmentSet implements LogSegmentSet {
  private final List<Path> files;
  private final long last;
  private final long bytes;
  private final Runnable onClose;
  private boolean closed;

  private ClosedSegmentSet(List<Path> files, long last, long bytes, Runnable onClose) {
    this.files = List.copyOf(files);
    this.last = last;
    this.bytes = bytes;
    this.onClose = onClose;
  }

  /** Lists {@code dir}; the caller has made sure no region is open on it. */
  public static ClosedSegmentSet list(StorageFiles io, Path dir, Runnable onClose) {
    try {
      List<Path> segments = io.listSegments(dir);
      if (segments.isEmpty()) {
        throw new StorageException("no log segments in " + dir);
      }
      long total = 0;
      for (Path p : segments) {
        total += io.size(p);
      }
      long last = LogSegmentSet.segmentNumber(segments.get(segments.size() - 1));
      return new ClosedSegmentSet(segments, last, total, onClose);
    } catch (IOException e) {
      throw new StorageException("listing the segments of " + dir + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public List<Path> files() {
    return files;
  }

  @Override
  public long lastSegment() {
    return last;
  }

  @Override
  public long totalBytes() {
    return bytes;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      onClose.run();
    }
  }
}
