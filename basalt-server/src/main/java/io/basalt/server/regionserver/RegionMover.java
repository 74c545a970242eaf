package io.basalt.server.regionserver;

import io.basalt.server.control.MoveSource;
import io.basalt.server.transfer.FetchStats;
import io.basalt.server.transfer.SegmentFetcher;
import io.basalt.server.transfer.SegmentManifest;
import io.basalt.server.transfer.SegmentServer;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.segment.LogSegmentSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A region server's part in moves, both ways. As a source it pins the region's closed log segments (JE
 * keeps them intact: no cleaning) and exports them on its {@link SegmentServer}, then after CLOSE exports
 * the closed directory's final set; as a target it pulls them with a {@link SegmentFetcher} into
 * {@code <region>.incoming} and, at OPEN, pulls the rest and renames the directory into place. Every step
 * can be repeated after a crash: fetches resume, exports are re-made.
 */
final class RegionMover implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionMover.class);

  private final StorageEngine engine;
  private final Path regionsDir;
  private final SegmentServer segments;
  private final SegmentFetcher fetcher;
  /** Segment sets held open for a move out, by encoded region name (pinned while serving, then closed). */
  private final Map<String, LogSegmentSet> held = new ConcurrentHashMap<>();

  RegionMover(StorageEngine engine, Path regionsDir, SegmentServer segments, SegmentFetcher fetcher) {
    this.engine = engine;
    this.regionsDir = regionsDir;
    this.segments = segments;
    this.fetcher = fetcher;
  }

  boolean isMovingOut(String encoded) {
    return held.containsKey(encoded);
  }

  /** Source, serving: pins the segments written so far and exports them. */
  MoveSource pin(String encoded, LogSegmentSet pinned) throws IOException {
    release(encoded);
    held.put(encoded, pinned);
    SegmentManifest manifest = SegmentManifest.of(encoded, pinned);
    segments.export(manifest);
    LOG.info("exported {} segments ({} bytes) of {} for a move", manifest.segments().size(), manifest.totalBytes(), encoded);
    return new MoveSource(segments.address(), manifest.encode());
  }

  /** Source, after the region closed: exports every segment of its directory (held until the move ends). */
  MoveSource exportClosed(String encoded) throws IOException {
    release(encoded);
    LogSegmentSet closed;
    try {
      closed = engine.closedSegments(regionsDir.resolve(encoded));
    } catch (RuntimeException e) {
      throw new IOException("cannot list the segments of closed region " + encoded + ": " + e.getMessage(), e);
    }
    held.put(encoded, closed);
    SegmentManifest manifest = SegmentManifest.of(encoded, closed);
    segments.export(manifest);
    return new MoveSource(segments.address(), manifest.encode());
  }

  /** Source: stops exporting and lets the engine clean (or open) the region's segments again. */
  void release(String encoded) {
    segments.unexport(encoded);
    LogSegmentSet set = held.remove(encoded);
    if (set != null) {
      try {
        set.close();
      } catch (RuntimeException e) {
        LOG.debug("releasing the segments of {}: {}", encoded, e.toString());
      }
    }
  }

  /** Target: pulls the source's exported segments into the staging directory. Returns the bytes received. */
  long fetch(RegionInfo region, MoveSource source) throws IOException {
    FetchStats stats = fetcher.fetch(source.transferAddress(), SegmentManifest.decode(source.manifest()),
        staging(region));
    LOG.info("pulled {} of {} from {}", stats, region.getEncodedName(), source.transferAddress());
    return stats.bytes();
  }

  /** Target: after the final fetch, the staging directory becomes the region's directory. */
  void install(RegionInfo region) throws IOException {
    Path dir = regionsDir.resolve(region.getEncodedName());
    if (!Files.isDirectory(dir)) {
      Files.move(staging(region), dir, StandardCopyOption.ATOMIC_MOVE);
    }
  }

  /** Target, undoing: deletes what was pulled (staging and, if installed, the directory). */
  void discard(RegionInfo region) throws IOException {
    LocalStorageFiles.INSTANCE.deleteRecursively(staging(region));
    LocalStorageFiles.INSTANCE.deleteRecursively(regionsDir.resolve(region.getEncodedName()));
  }

  private Path staging(RegionInfo region) {
    return regionsDir.resolve(region.getEncodedName() + ".incoming");
  }

  @Override
  public void close() {
    for (String encoded : held.keySet()) {
      release(encoded);
    }
    segments.close();
  }
}
