package io.basalt.server.regionserver;

import io.basalt.server.catalog.Member;
import io.basalt.server.control.CrashPoints;
import io.basalt.server.control.GroupMergeControl;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.region.MergeReport;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.schema.KeyRange;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.hbase.HBaseIOException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server's part in merging replicated regions: closing a member at its sealed primary's barrier (cloning the
 * base's log into the merged region's directory), and founding the merged group on the founder, where the other
 * region's records are written into it through the group. Each call holds the region's lock, as opens and closes do.
 */
final class MemberMerges implements GroupMergeControl {
  private static final Logger LOG = LoggerFactory.getLogger(MemberMerges.class);

  /** How long a member's close waits for its log to reach the sealed primary's end (as for a split). */
  private static final Duration CATCH_UP = Duration.ofSeconds(5);

  private final RegionServer server;
  private final StorageEngine engine;

  MemberMerges(RegionServer server, StorageEngine engine) {
    this.server = server;
    this.engine = engine;
  }

  @Override
  public long logBytes(RegionInfo region) throws IOException {
    try {
      return engine.logBytes(server.regionDir(region));
    } catch (StorageException e) {
      throw new HBaseIOException("cannot size " + region.getRegionNameAsString() + " on " + server.serverName() + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public long closeMemberForMerge(RegionInfo region, long barrier, RegionInfo cloneInto) throws IOException {
    synchronized (server.lock(region.getEncodedName())) {
      if (!(server.store(region.getEncodedName()) instanceof ReplicatedRegion member)) {
        throw new HBaseIOException("no member of " + region.getRegionNameAsString() + " is open on "
            + server.serverName() + ": its log position is unknown");
      }
      long position;
      try {
        position = member.awaitLogPosition(barrier, CATCH_UP);
      } catch (StorageException e) {
        throw new HBaseIOException("cannot read the log position of " + region.getRegionNameAsString() + ": "
            + e.getMessage(), e);
      }
      if (cloneInto == null) {
        server.closeLocked(region.getEncodedName());
        LOG.info("closed the member of {} at log position {} for a merge", region.getRegionNameAsString(), position);
      } else {
        // One target: the second round of the split's clone finds it there.
        var report = server.closeAndCloneLocked(region, cloneInto, cloneInto);
        LOG.info("closed the member of {} at log position {} and cloned it for {} ({} ms close, {} ms clone, {} bytes"
            + " copied)", region.getRegionNameAsString(), position, cloneInto.getRegionNameAsString(),
            report.closeMillis(), report.cloneMillis(), report.bytesCopied());
      }
      return position;
    }
  }

  @Override
  public long foundMergedGroup(RegionInfo merged, String group, List<Member> members, RegionInfo other)
      throws IOException {
    Member founder = members.get(0);
    if (!founder.isOn(server.serverName())) {
      throw new IOException(server.serverName() + " is not the founder of " + merged.getRegionNameAsString() + " ("
          + founder.server() + " is)");
    }
    synchronized (server.lock(other.getEncodedName())) {
      synchronized (server.lock(merged.getEncodedName())) {
        if (server.store(merged.getEncodedName()) != null) {
          return 0; // founded and opened before (a recovered merge repeats this step)
        }
        if (server.store(other.getEncodedName()) != null) {
          throw new HBaseIOException("the member of " + other.getRegionNameAsString() + " on " + server.serverName()
              + " is still open: its records cannot be copied");
        }
        if (!Files.isDirectory(server.regionDir(merged)) || !Files.isDirectory(server.regionDir(other))) {
          throw new HBaseIOException("cannot found " + merged.getRegionNameAsString() + " on " + server.serverName()
              + ": the base's clone or the member of " + other.getRegionNameAsString() + " is not here");
        }
        ReplicationPorts ports = server.ports();
        MergeReport report;
        try {
          report = engine.refoundMergedGroup(server.regionDir(merged),
              MemberOpener.membership(group, members, founder, ports.host()), server.regionDir(other),
              new KeyRange(merged.getStartKey(), merged.getEndKey()));
        } catch (RuntimeException e) {
          throw new IOException("cannot found the group of " + merged.getRegionNameAsString() + ": " + e.getMessage(),
              e);
        }
        ports.inUse(merged.getEncodedName(), founder.port());
        CrashPoints.reached("regionserver.gmerge.founded");
        if (report == null) {
          LOG.info("group {} of {} was founded and filled already", group, merged.getRegionNameAsString());
          return 0;
        }
        LOG.info("founded group {} of {} at port {} and copied {} records ({} bytes, {} stale keys dropped) of {} "
            + "into it in {} ms", group, merged.getRegionNameAsString(), founder.port(), report.recordsCopied(),
            report.bytesCopied(), report.staleDeleted(), other.getRegionNameAsString(), report.millis());
        return report.bytesCopied();
      }
    }
  }
}
