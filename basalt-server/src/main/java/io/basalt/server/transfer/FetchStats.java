package io.basalt.server.transfer;

import java.time.Duration;
import java.util.List;

/**
 * What one {@link SegmentFetcher#fetch} did.
 *
 * @param bytes segment bytes received (a resumed file counts only its rest)
 * @param filesFetched segments received, whole or their rest
 * @param filesSkipped segments already complete in the staging directory
 * @param filesRemoved staged segments deleted: not in the manifest, or of another length (then fetched anew)
 * @param elapsed wall time of the whole fetch
 * @param streams one entry per parallel stream
 */
public record FetchStats(long bytes, int filesFetched, int filesSkipped, int filesRemoved, Duration elapsed,
    List<StreamStats> streams) {
  public FetchStats {
    streams = List.copyOf(streams);
  }

  /** One stream's share: bytes and files it received, and how long it ran. */
  public record StreamStats(long bytes, int files, Duration elapsed) {
    public double megabytesPerSecond() {
      return FetchStats.megabytesPerSecond(bytes, elapsed);
    }
  }

  /** Overall rate, in MB (10^6 bytes) per second. */
  public double megabytesPerSecond() {
    return megabytesPerSecond(bytes, elapsed);
  }

  private static double megabytesPerSecond(long bytes, Duration elapsed) {
    long nanos = Math.max(1, elapsed.toNanos());
    return bytes / 1e6 / (nanos / 1e9);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(String.format("%d bytes in %d files (%d skipped, %d removed) in %d ms, %.1f MB/s",
        bytes, filesFetched, filesSkipped, filesRemoved, elapsed.toMillis(), megabytesPerSecond()));
    for (int i = 0; i < streams.size(); i++) {
      StreamStats s = streams.get(i);
      sb.append(String.format("; stream %d: %d bytes, %d files, %.1f MB/s", i, s.bytes(), s.files(), s.megabytesPerSecond()));
    }
    return sb.toString();
  }
}
