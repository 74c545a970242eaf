package io.basalt.server.regionserver;

import io.basalt.server.catalog.Member;
import io.basalt.server.control.CrashPoints;
import io.basalt.server.control.GroupSplitControl;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.replication.ReplicatedRegion;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.HBaseIOException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server's part in splitting replicated regions: sealing the primary, closing and cloning a member
 * locally (as an unreplicated split clones: no copy crosses the network), refounding a daughter's group on
 * its founder, and undoing it all. Each call holds the region's lock, as opens and closes do.
 */
final class MemberSplits implements GroupSplitControl {
  private static final Logger LOG = LoggerFactory.getLogger(MemberSplits.class);

  /** How long a member's close waits for its log to reach the sealed primary's end. */
  private static final java.time.Duration CATCH_UP = java.time.Duration.ofSeconds(5);

  private final RegionServer server;
  private final StorageEngine engine;

  MemberSplits(RegionServer server, StorageEngine engine) {
    this.server = server;
    this.engine = engine;
  }

  private ReplicatedRegion member(RegionInfo region) throws IOException {
    Region store = server.store(region.getEncodedName());
    if (!(store instanceof ReplicatedRegion m)) {
      throw new HBaseIOException("no member of " + region.getRegionNameAsString() + " is open on "
          + server.serverName());
    }
    return m;
  }

  @Override
  public long sealForSplit(RegionInfo parent) throws IOException {
    synchronized (server.lock(parent.getEncodedName())) {
      ReplicatedRegion m = member(parent);
      server.splitHolds().hold(parent);
      boolean sealed = false;
      try {
        long barrier = m.sealForSplit();
        sealed = true;
        LOG.info("sealed {} for a split at log position {}", parent.getRegionNameAsString(), barrier);
        return barrier;
      } catch (StorageException e) {
        throw new HBaseIOException("cannot seal " + parent.getRegionNameAsString() + " for a split: " + e.getMessage(),
            e);
      } finally {
        if (!sealed) {
          server.splitHolds().release(parent); // writes resume here
        }
      }
    }
  }

  @Override
  public long closeAndCloneMember(RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB, long barrier)
      throws IOException {
    synchronized (server.lock(parent.getEncodedName())) {
      long position;
      try {
        // A secondary may still be applying the last entries the sealed primary sent: worth a short wait.
        position = member(parent).awaitLogPosition(barrier, CATCH_UP);
      } catch (StorageException e) {
        throw new HBaseIOException("cannot read the log position of " + parent.getRegionNameAsString() + ": "
            + e.getMessage(), e);
      }
      var report = server.closeAndCloneLocked(parent, daughterA, daughterB);
      LOG.info("closed the member of {} at log position {} and cloned it ({} ms close, {} ms clone, {} bytes copied)",
          parent.getRegionNameAsString(), position, report.closeMillis(), report.cloneMillis(), report.bytesCopied());
      return position;
    }
  }

  @Override
  public void foundDaughterGroup(RegionInfo daughter, String group, List<Member> members) throws IOException {
    Member founder = members.get(0);
    if (!founder.isOn(server.serverName())) {
      throw new IOException(server.serverName() + " is not the founder of " + daughter.getRegionNameAsString()
          + " (" + founder.server() + " is)");
    }
    synchronized (server.lock(daughter.getEncodedName())) {
      if (server.store(daughter.getEncodedName()) != null) {
        return; // founded and opened before (a recovered split repeats this step)
      }
      ReplicationPorts ports = server.ports();
      long start = System.nanoTime();
      try {
        boolean done = engine.refoundGroup(server.regionDir(daughter),
            MemberOpener.membership(group, members, founder, ports.host()));
        LOG.info("{} group {} of {} at port {} ({} ms)", done ? "founded" : "already founded:", group,
            daughter.getRegionNameAsString(), founder.port(), (System.nanoTime() - start) / 1_000_000);
      } catch (RuntimeException e) {
        throw new IOException("cannot found the group of " + daughter.getRegionNameAsString() + ": "
            + e.getMessage(), e);
      }
      ports.inUse(daughter.getEncodedName(), founder.port());
      CrashPoints.reached("regionserver.gsplit.founded");
    }
  }

  @Override
  public void rollBackGroupSplit(RegionInfo parent, TableDescriptor table, RegionInfo daughterA,
      RegionInfo daughterB, String group, List<Member> members) throws IOException {
    for (RegionInfo daughter : List.of(daughterA, daughterB)) {
      server.dropRegion(daughter);
      LocalStorageFiles.INSTANCE.deleteRecursively(server.regionDir(daughter).resolveSibling(
          daughter.getEncodedName() + ".cloning"));
    }
    synchronized (server.lock(parent.getEncodedName())) {
      if (server.store(parent.getEncodedName()) instanceof ReplicatedRegion open) {
        open.unseal();
        server.splitHolds().release(parent);
        LOG.info("split of {} undone: its primary takes writes again", parent.getRegionNameAsString());
        return;
      }
    }
    try {
      server.openMember(parent, table, group, members, false);
    } finally {
      server.splitHolds().release(parent);
    }
    LOG.info("split of {} undone: its member reopened", parent.getRegionNameAsString());
  }
}
