package io.basalt.server.regionserver;

import io.basalt.server.control.CloneReport;
import io.basalt.server.control.CrashPoints;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.region.MergeReport;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.schema.KeyRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A region server's part in merging two adjacent regions it serves: close both, build the merged region's
 * directory from theirs ({@link StorageEngine#mergeClosed}: a clone of the larger one's log filled with the smaller
 * one's records), or undo that. The merged directory is built under a suffix and renamed into place, so a
 * directory without one is complete and a repeat after a crash finds it done or starts over.
 */
final class RegionMerges {
  private static final Logger LOG = LoggerFactory.getLogger(RegionMerges.class);
  private static final LocalStorageFiles FILES = LocalStorageFiles.INSTANCE;
  private static final String WORK_SUFFIX = ".merging";

  private final RegionServer rs;
  private final StorageEngine engine;

  RegionMerges(RegionServer rs, StorageEngine engine) {
    this.rs = rs;
    this.engine = engine;
  }

  CloneReport closeAndMerge(RegionInfo lower, RegionInfo upper, RegionInfo merged) throws IOException {
    // Both regions' locks in name order, so that no open or close of either races the merge and two calls
    // naming the same regions cannot wait on each other crosswise.
    String[] names = Stream.of(lower, upper).map(RegionInfo::getEncodedName).sorted().toArray(String[]::new);
    synchronized (rs.lock(names[0])) {
      synchronized (rs.lock(names[1])) {
        synchronized (rs.lock(merged.getEncodedName())) {
          return closeAndMergeLocked(lower, upper, merged);
        }
      }
    }
  }

  private CloneReport closeAndMergeLocked(RegionInfo lower, RegionInfo upper, RegionInfo merged) throws IOException {
    long start = System.nanoTime();
    rs.closeLocked(lower.getEncodedName());
    rs.closeLocked(upper.getEncodedName());
    long closed = System.nanoTime();
    CrashPoints.reached("regionserver.merge.closed");
    Path target = rs.regionDir(merged);
    if (Files.isDirectory(target)) {
      return new CloneReport((closed - start) / 1_000_000, 0, 0);
    }
    Path a = rs.regionDir(lower);
    Path b = rs.regionDir(upper);
    if (!Files.isDirectory(a) || !Files.isDirectory(b)) {
      throw new IOException("cannot merge " + lower.getRegionNameAsString() + " and " + upper.getRegionNameAsString()
          + ": the data of both is not on " + rs.serverName());
    }
    Path work = target.resolveSibling(target.getFileName() + WORK_SUFFIX);
    FILES.deleteRecursively(work);
    MergeReport report;
    try {
      report = engine.mergeClosed(a, b, work, new KeyRange(merged.getStartKey(), merged.getEndKey()));
    } catch (RuntimeException e) {
      throw new IOException("merging " + lower.getRegionNameAsString() + " and " + upper.getRegionNameAsString()
          + " failed: " + e.getMessage(), e);
    }
    CrashPoints.reached("regionserver.merge.built");
    Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
    LOG.info("merged {} and {} into {}: {} records ({} bytes) copied, {} stale keys dropped, {} ms",
        lower.getRegionNameAsString(), upper.getRegionNameAsString(), merged.getRegionNameAsString(),
        report.recordsCopied(), report.bytesCopied(), report.staleDeleted(), report.millis());
    return new CloneReport((closed - start) / 1_000_000, (System.nanoTime() - closed) / 1_000_000,
        report.bytesCopied() + report.tailBytes());
  }

  void rollBackMerge(RegionInfo lower, RegionInfo upper, TableDescriptor table, RegionInfo merged)
      throws IOException {
    rs.dropRegion(merged);
    Path target = rs.regionDir(merged);
    FILES.deleteRecursively(target.resolveSibling(target.getFileName() + WORK_SUFFIX));
    rs.openRegion(lower, table);
    rs.openRegion(upper, table);
  }
}
