package io.basalt.server.regionserver;

import io.basalt.server.catalog.Member;
import io.basalt.server.control.CrashPoints;
import io.basalt.server.control.SnapshotControl;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.segment.LogSegmentSet;
import io.basalt.storage.segment.SegmentLinker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot directories of one region server, {@code DATA/snapshots/NAME/ENCODED}: each a region's log, hard-linked
 * (the paper's clone primitive, as a split uses it), so a snapshot costs links and no copy, and the region keeps
 * serving. Work is done in a directory with a suffix and renamed into place, so a directory without one is
 * complete and a crash leaves only work that a repeat clears. Calls about one region run under that region's lock,
 * so no open or close of it races a link.
 */
final class RegionSnapshots implements SnapshotControl {
  private static final Logger LOG = LoggerFactory.getLogger(RegionSnapshots.class);
  private static final LocalStorageFiles FILES = LocalStorageFiles.INSTANCE;

  private final Path snapshotsDir;
  private final Path regionsDir;
  private final StorageEngine engine;
  private final Function<String, Object> locks;
  /** The store serving a region here now, by encoded name; null if closed. */
  private final Function<String, Region> open;
  private final Supplier<String> serverName;
  /** This server's replication ports (fails on a server that hosts no replicated regions). */
  private final java.util.concurrent.Callable<ReplicationPorts> ports;

  RegionSnapshots(Path dataDir, StorageEngine engine, Function<String, Object> locks, Function<String, Region> open,
      Supplier<String> serverName, java.util.concurrent.Callable<ReplicationPorts> ports) {
    this.ports = ports;
    this.snapshotsDir = dataDir.resolve("snapshots");
    this.regionsDir = dataDir.resolve("regions");
    this.engine = engine;
    this.locks = locks;
    this.open = open;
    this.serverName = serverName;
  }

  Path dir(String snapshot, RegionInfo region) throws IOException {
    if (snapshot.isEmpty() || snapshot.contains("/") || snapshot.startsWith(".")) {
      throw new IOException("not a snapshot name: " + snapshot);
    }
    return snapshotsDir.resolve(snapshot).resolve(region.getEncodedName());
  }

  @Override
  public long linkRegion(String snapshot, RegionInfo region) throws IOException {
    Path target = dir(snapshot, region);
    synchronized (locks.apply(region.getEncodedName())) {
      if (Files.isDirectory(target)) {
        return 0;
      }
      Path work = work(target, "linking");
      long start = System.nanoTime();
      long copied;
      Region store = open.apply(region.getEncodedName());
      try {
        if (store != null) {
          copied = linkLive(store, region, work);
        } else if (Files.isDirectory(regionsDir.resolve(region.getEncodedName()))) {
          copied = engine.cloneClosed(regionsDir.resolve(region.getEncodedName()), work);
        } else {
          throw new IOException(region.getRegionNameAsString() + " has no data on " + serverName.get());
        }
      } catch (RuntimeException e) {
        FILES.deleteRecursively(work);
        throw new IOException("linking " + region.getRegionNameAsString() + " into snapshot " + snapshot + " failed: "
            + e.getMessage(), e);
      }
      CrashPoints.reached("regionserver.snapshot.linked");
      Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
      LOG.info("snapshot {}: linked {} in {} ms ({} bytes copied)", snapshot, region.getRegionNameAsString(),
          (System.nanoTime() - start) / 1_000_000, copied);
      return copied;
    }
  }

  /**
   * A live region's set, as a flip of its log closed it. A replica group's member must be the primary: it holds
   * every acknowledged write (a secondary may lag); its newest segment is copied, since a rollback after a later
   * failover could truncate it in place (see SegmentLinker).
   */
  private static long linkLive(Region store, RegionInfo region, Path work) throws IOException {
    boolean member = store instanceof ReplicatedRegion;
    if (member && ((ReplicatedRegion) store).role() != ReplicaRole.PRIMARY) {
      throw new IOException("the copy of " + region.getRegionNameAsString() + " here is not its group's primary"
          + " (a snapshot is taken from the primary, which holds every acknowledged write)");
    }
    try (LogSegmentSet set = store.checkpointedSegments()) {
      return SegmentLinker.link(FILES, set, work, member).bytesCopied();
    }
  }

  @Override
  public long importRegion(String snapshot, RegionInfo region, String directory) throws IOException {
    Path target = dir(snapshot, region);
    synchronized (locks.apply(region.getEncodedName())) {
      if (Files.isDirectory(target)) {
        return 0;
      }
      Path from = Path.of(directory).resolve(region.getEncodedName());
      if (!Files.isDirectory(from)) {
        throw new IOException("the export in " + directory + " has no files of " + region.getRegionNameAsString()
            + " (seen from " + serverName.get() + ")");
      }
      Path work = work(target, "importing");
      long bytes = copySegments(from, work);
      Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
      return bytes;
    }
  }

  @Override
  public long exportRegion(String snapshot, RegionInfo region, String directory) throws IOException {
    Path from = dir(snapshot, region);
    if (!Files.isDirectory(from)) {
      throw new IOException("snapshot " + snapshot + " has no files of " + region.getRegionNameAsString() + " on "
          + serverName.get());
    }
    Path target = Path.of(directory).resolve(region.getEncodedName());
    if (Files.isDirectory(target)) {
      return 0;
    }
    Path work = work(target, "exporting");
    long bytes = copySegments(from, work);
    Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
    return bytes;
  }

  private static long copySegments(Path from, Path to) throws IOException {
    List<Path> segments = FILES.listSegments(from);
    if (segments.isEmpty()) {
      throw new IOException("no log segments in " + from);
    }
    FILES.createDirectories(to);
    long bytes = 0;
    try {
      for (Path s : segments) {
        FILES.copy(s, to.resolve(s.getFileName()));
        bytes += FILES.size(s);
      }
    } catch (IOException | RuntimeException e) {
      FILES.deleteRecursively(to);
      throw e;
    }
    return bytes;
  }

  @Override
  public void dropRegion(String snapshot, RegionInfo region) throws IOException {
    Path target = dir(snapshot, region);
    synchronized (locks.apply(region.getEncodedName())) {
      FILES.deleteRecursively(target);
      for (String suffix : List.of("linking", "importing")) {
        FILES.deleteRecursively(target.resolveSibling(target.getFileName() + "." + suffix));
      }
      Path parent = target.getParent();
      try (var left = Files.list(parent)) {
        if (left.findAny().isEmpty()) {
          Files.deleteIfExists(parent);
        }
      } catch (java.nio.file.NoSuchFileException | java.nio.file.DirectoryNotEmptyException raced) {
        // gone already, or another region's files arrived meanwhile
      }
    }
  }

  @Override
  public long cloneRegion(String snapshot, RegionInfo source, RegionInfo target) throws IOException {
    Path from = dir(snapshot, source);
    Path to = regionsDir.resolve(target.getEncodedName());
    synchronized (locks.apply(target.getEncodedName())) {
      if (Files.isDirectory(to)) {
        return 0;
      }
      if (!Files.isDirectory(from)) {
        throw new IOException("snapshot " + snapshot + " has no files of " + source.getRegionNameAsString() + " on "
            + serverName.get());
      }
      Path work = regionsDir.resolve(target.getEncodedName() + ".cloning");
      FILES.deleteRecursively(work);
      long copied;
      try {
        copied = engine.cloneClosed(from, work);
      } catch (RuntimeException e) {
        throw new IOException("cloning snapshot " + snapshot + "'s " + source.getRegionNameAsString() + " failed: "
            + e.getMessage(), e);
      }
      Files.move(work, to, StandardCopyOption.ATOMIC_MOVE);
      return copied;
    }
  }

  @Override
  public void foundCloneGroup(RegionInfo target, String group, List<Member> members) throws IOException {
    Member founder = members.get(0);
    if (!founder.isOn(org.apache.hadoop.hbase.ServerName.valueOf(serverName.get()))) {
      throw new IOException(serverName.get() + " is not the founder of " + target.getRegionNameAsString() + " ("
          + founder.server() + " is)");
    }
    ReplicationPorts p;
    try {
      p = ports.call();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e.getMessage(), e);
    }
    Path dir = regionsDir.resolve(target.getEncodedName());
    synchronized (locks.apply(target.getEncodedName())) {
      if (open.apply(target.getEncodedName()) != null) {
        return; // founded and opened before (a recovered clone repeats this step)
      }
      long start = System.nanoTime();
      try {
        boolean done = engine.foundNewGroup(dir, MemberOpener.membership(group, members, founder, p.host()));
        LOG.info("{} new group {} of {} from its snapshot clone, at port {} ({} ms)", done ? "founded" : "already founded:",
            group, target.getRegionNameAsString(), founder.port(), (System.nanoTime() - start) / 1_000_000);
      } catch (RuntimeException e) {
        throw new IOException("cannot found the group of " + target.getRegionNameAsString() + ": " + e.getMessage(), e);
      }
      p.inUse(target.getEncodedName(), founder.port());
      CrashPoints.reached("regionserver.clone.founded");
    }
  }

  private static Path work(Path target, String suffix) throws IOException {
    Path work = target.resolveSibling(target.getFileName() + "." + suffix);
    FILES.deleteRecursively(work);
    Files.createDirectories(work.getParent());
    return work;
  }
}
