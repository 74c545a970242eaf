package io.basalt.storage.segment;

import java.nio.file.Path;
import java.util.List;

/**
 * An immutable set of a region's log segment files ({@code NNNNNNNN.jdb}, the segment number in hex), each
 * file closed for writing. While the set is open the engine will not delete or change these files, so they
 * can be copied, linked or shipped safely.
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

  /** The number of a segment file from its name ({@code 0000001a.jdb} is 26). */
  static long segmentNumber(Path file) {
    String name = file.getFileName().toString();
    if (!name.matches("[0-9a-f]{8}\\.jdb")) {
      throw new IllegalArgumentException("not a log segment file name: " + name);
    }
    return Long.parseLong(name.substring(0, 8), 16);
  }

  /** The file name of segment {@code number}. */
  static String fileName(long number) {
    if (number < 0 || number > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("segment number out of range: " + number);
    }
    return String.format("%08x.jdb", number);
  }
}
