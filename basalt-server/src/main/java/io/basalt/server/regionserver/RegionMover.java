package io.basalt.server.regionserver;

import io.basalt.server.control.CrashPoints;
import io.basalt.server.control.MoveSource;
import io.basalt.server.control.PrefetchReports;
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
 * {@code <region>.incoming} in the background, reporting the end in ZooKeeper ({@link PrefetchReports}),
 * and, at OPEN, pulls the rest and renames the directory into place. Every step can be repeated after a
 * crash: fetches resume, exports are re-made.
 */
final class RegionMover implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionMover.class);

  private final StorageEngine engine;
  private final Path regionsDir;
  private final SegmentServer segments;
  private final SegmentFetcher fetcher;
  /** Segment sets held open for a move out, by encoded region name (pinned while serving, then closed). */
  private final Map<String, LogSegmentSet> held = new ConcurrentHashMap<>();
  private final PrefetchReports reports;
  /** The thread of each prefetch, running or ended, by encoded region name (one at a time per region). */
  private final Map<String, Thread> prefetches = new ConcurrentHashMap<>();

  RegionMover(StorageEngine engine, Path regionsDir, SegmentServer segments, SegmentFetcher fetcher,
      PrefetchReports reports) {
    this.engine = engine;
    this.regionsDir = regionsDir;
    this.segments = segments;
    this.fetcher = fetcher;
    this.reports = reports;
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

  /**
   * Target: starts pulling the source's exported segments into the staging directory and returns; the end
   * (bytes received, or the failure) is reported in ZooKeeper. A prefetch of the region already running
   * goes on instead.
   */
  void startPrefetch(RegionInfo region, MoveSource source) {
    String encoded = region.getEncodedName();
    prefetches.compute(encoded, (name, running) -> {
      if (running != null && running.isAlive()) {
        return running;
      }
      Thread t = new Thread(() -> prefetch(region, source), "basalt-prefetch-" + encoded);
      t.setDaemon(true);
      t.start();
      return t;
    });
  }

  private void prefetch(RegionInfo region, MoveSource source) {
    long bytes = 0;
    String failure = null;
    try {
      bytes = fetch(region, source);
    } catch (IOException | RuntimeException e) {
      failure = e.toString();
      LOG.warn("prefetch of {} failed: {}", region.getEncodedName(), failure);
    }
    try {
      reports.report(region.getEncodedName(), bytes, failure);
    } catch (IOException e) {
      LOG.warn("{}", e.getMessage()); // the master's wait ends when it sees the target gone or times out
    }
    CrashPoints.reached("regionserver.move.prefetched");
  }

  /** Target: reports a prefetch with nothing to pull (the region is here already). */
  void reportPrefetched(RegionInfo region) throws IOException {
    reports.report(region.getEncodedName(), 0, null);
  }

  /** Target: stops the region's prefetch if one runs and waits until it has (before OPEN or an undo). */
  void stopPrefetch(RegionInfo region) throws IOException {
    Thread running = prefetches.get(region.getEncodedName());
    if (running == null) {
      return;
    }
    // An interrupt closes the transfer channels; what was pulled stays staged, and a later pull resumes.
    running.interrupt();
    try {
      running.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted stopping the prefetch of " + region.getEncodedName());
    }
    if (running.isAlive()) {
      throw new IOException("the prefetch of " + region.getEncodedName() + " does not stop");
    }
    prefetches.remove(region.getEncodedName(), running);
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
    prefetches.values().forEach(Thread::interrupt);
    for (String encoded : held.keySet()) {
      release(encoded);
    }
    segments.close();
  }
}
