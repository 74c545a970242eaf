package io.basalt.server.regionserver;

import io.basalt.server.catalog.Member;
import io.basalt.server.config.PortRange;
import io.basalt.server.control.CloneReport;
import io.basalt.server.control.CrashPoints;
import io.basalt.server.control.MoveSource;
import io.basalt.server.control.PrefetchReports;
import io.basalt.server.control.RegionServerControl;
import io.basalt.server.convert.Schemas;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The regions one server hosts, each a storage region in {@code dataDir/regions/<encoded name>}, plus the
 * state of the client protocol around them (scanner leases, nonces).
 */
public final class RegionServer implements RegionServerControl, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionServer.class);
  /**
   * The location sequence number of every region location Basalt hands out (hbase:meta's seqnumDuringOpen
   * and RegionMovedException's): HBase's async client follows a redirect only if its number is at least the
   * one it cached, so the two must agree.
   */
  public static final long LOCATION_SEQ_NUM = 1;

  private final ServerName serverName;
  private final StorageEngine engine;
  private final Path regionsDir;
  private final Map<String, HostedRegion> regions = new ConcurrentHashMap<>();
  private final ScannerLeases leases;
  private final Nonces nonces = new Nonces();
  private final ServerLease lease;
  /** Where regions that moved away went, so late clients get RegionMovedException and follow. */
  private final Map<String, ServerName> movedTo = new ConcurrentHashMap<>();
  private final Map<String, Object> regionLocks = new ConcurrentHashMap<>();
  /** Encoded names of the read replicas (1..R-1) of the replicated regions hosted here, to their region's. */
  private final Map<String, String> replicaOf = new ConcurrentHashMap<>();
  private volatile RegionMover mover;
  private volatile MetaSource meta;
  private volatile ReplicationPorts ports;
  private volatile PrimaryReporter primaries;
  private final MemberSplits memberSplits;
  private final MemberMerges memberMerges;
  private final SplitHolds splitHolds = new SplitHolds(SplitHolds.MAX);
  private final RegionLookup lookup;
  private final RegionCompactions compactions = new RegionCompactions();
  private final RegionSnapshots snapshots;
  private final RegionMerges merges;

  public RegionServer(ServerName serverName, StorageEngine engine, Path dataDir, ScannerLimits scanners,
      ServerLease lease) {
    this.serverName = serverName;
    this.engine = engine;
    this.regionsDir = dataDir == null ? null : dataDir.resolve("regions");
    this.leases = new ScannerLeases(scanners, serverName.getStartCode() << 16);
    this.lease = lease;
    this.memberSplits = new MemberSplits(this, engine);
    this.memberMerges = new MemberMerges(this, engine);
    this.merges = new RegionMerges(this, engine);
    this.lookup = new RegionLookup(serverName, regions, replicaOf, movedTo, lease, splitHolds);
    this.snapshots = dataDir == null ? null : new RegionSnapshots(dataDir, engine, this::lock, this::store,
        serverName::toString, this::ports);
  }

  /** The ClientService side of a master: it hosts no regions, only the {@code hbase:meta} view. */
  public static RegionServer metaOnly(ServerName serverName, MetaSource meta, ScannerLimits scanners) {
    RegionServer rs = new RegionServer(serverName, null, null, scanners, ServerLease.unbounded());
    rs.serveMeta(meta);
    return rs;
  }

  public ServerName serverName() {
    return serverName;
  }

  /** Serves {@code hbase:meta} from this source (the master's catalog). */
  public void serveMeta(MetaSource source) {
    this.meta = source;
  }

  MetaSource meta() {
    return meta;
  }

  ScannerLeases leases() {
    return leases;
  }

  Nonces nonces() {
    return nonces;
  }

  Path regionDir(RegionInfo info) {
    return regionsDir.resolve(info.getEncodedName());
  }

  public ServerLease lease() {
    return lease;
  }

  /** Opens the store of a region from its data here and starts serving it; refused if the data is missing. */
  @Override
  public void openRegion(RegionInfo info, TableDescriptor table) throws IOException {
    requireEngine();
    synchronized (lock(info.getEncodedName())) {
      openLocked(info, table, false);
    }
  }

  @Override
  public void createRegion(RegionInfo info, TableDescriptor table) throws IOException {
    requireEngine();
    synchronized (lock(info.getEncodedName())) {
      openLocked(info, table, true);
    }
  }

  private void requireEngine() throws IOException {
    if (engine == null) {
      throw new IOException(serverName + " hosts no regions");
    }
  }

  /**
   * Open and close of one region are serialized by its own lock, so regions open in parallel (a split's
   * two daughters, many regions at start-up) while no region is ever opened twice.
   */
  Object lock(String encodedName) {
    return regionLocks.computeIfAbsent(encodedName, k -> new Object());
  }

  private void openLocked(RegionInfo info, TableDescriptor table, boolean create) throws IOException {
    if (regions.containsKey(info.getEncodedName())) {
      return;
    }
    movedTo.remove(info.getEncodedName());
    Path dir = regionDir(info);
    if (!create && !Files.isDirectory(dir)) {
      throw new IOException(info.getRegionNameAsString() + " has no data on " + serverName + " ("
          + dir + " is missing): not served, so that it does not come back empty");
    }
    Region store;
    try {
      // A daughter's directory is a clone of its parent's: opening it restricted to the daughter's range
      // hides the other half at once (and collects it in the background); for any other region it is a no-op.
      store = Files.isDirectory(dir) ? engine.openRestricted(dir, Schemas.descriptor(table, info).range())
          : engine.create(dir, Schemas.descriptor(table, info));
      if (!store.descriptor().families().equals(Schemas.descriptor(table, info).families())) {
        store.alterFamilies(Schemas.descriptor(table, info));
      }
    } catch (RuntimeException e) {
      throw new IOException("cannot open region " + info.getRegionNameAsString() + ": " + e.getMessage(), e);
    }
    regions.put(info.getEncodedName(), new HostedRegion(info, table, store));
    LOG.info("opened region {}", info.getRegionNameAsString());
  }

  @Override
  public void closeRegion(RegionInfo info) {
    closeRegion(info.getEncodedName());
  }

  /** Stops serving a region and closes its store. */
  public void closeRegion(String encodedName) {
    synchronized (lock(encodedName)) {
      closeLocked(encodedName);
    }
  }

  void closeLocked(String encodedName) {
    HostedRegion r = regions.remove(encodedName);
    if (r != null) {
      replicaOf.values().removeIf(encodedName::equals);
      leases.closeRegion(r.info().getRegionNameAsString());
      r.store().close();
      LOG.info("closed region {}", r.info().getRegionNameAsString());
    }
  }

  /** Closes a region and deletes its data (table deleted or truncated). */
  @Override
  public void dropRegion(RegionInfo info) throws IOException {
    synchronized (lock(info.getEncodedName())) {
      closeLocked(info.getEncodedName());
      if (regionsDir != null) {
        LocalStorageFiles.INSTANCE.deleteRecursively(regionDir(info));
      }
      if (ports != null) {
        ports.release(info.getEncodedName());
      }
    }
    splitHolds.release(info); // a merged region is published by now: held writes go and find it
  }

  @Override
  public int flushTable(org.apache.hadoop.hbase.TableName table) {
    int flushed = 0;
    for (Map.Entry<String, HostedRegion> e : regions.entrySet()) {
      if (e.getValue().info().getTable().equals(table)) {
        compactions.flush(e.getKey(), e.getValue().store());
        flushed++;
      }
    }
    return flushed;
  }

  public RegionCompactions compactions() {
    return compactions;
  }

  /** Applies a changed table descriptor (families, settings) to its open regions. */
  @Override
  public void alterTable(TableDescriptor table) {
    regions.replaceAll((name, r) -> {
      if (!r.info().getTable().equals(table.getTableName())) {
        return r;
      }
      r.store().alterFamilies(Schemas.descriptor(table, r.info()));
      return r.withTable(table);
    });
  }

  /** How client requests find the region they name (see {@link RegionLookup}). */
  RegionLookup lookup() {
    return lookup;
  }

  SplitHolds splitHolds() {
    return splitHolds;
  }

  @Override
  public List<RegionInfo> onlineRegions() {
    return regions.values().stream().map(HostedRegion::info).toList();
  }

  @Override
  public List<String> storedRegions() throws IOException {
    List<String> out = new ArrayList<>();
    if (regionsDir != null && Files.isDirectory(regionsDir)) {
      try (var dirs = Files.list(regionsDir)) {
        // Work directories (a clone in progress) carry a suffix; region directories are bare encoded names.
        dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).filter(n -> !n.contains("."))
            .forEach(out::add);
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ split

  @Override
  public Optional<byte[]> midpoint(RegionInfo parent) throws IOException {
    return lookup.region(parent.getRegionName()).store().midpointRow();
  }

  /**
   * Split's local work: stops serving the parent (new operations are refused, in-flight ones drain, its log
   * is synced and closed), then clones its log into each daughter's directory: closed segments hard-linked,
   * only the tail copied. A daughter directory appears only complete (cloned aside, then renamed), so a
   * repeat after a crash finishes the job. Returns the bytes copied.
   */
  @Override
  public CloneReport closeAndClone(RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB)
      throws IOException {
    synchronized (lock(parent.getEncodedName())) {
      return closeAndCloneLocked(parent, daughterA, daughterB);
    }
  }

  CloneReport closeAndCloneLocked(RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB)
      throws IOException {
    long start = System.nanoTime();
    closeLocked(parent.getEncodedName());
    long closed = System.nanoTime();
    CrashPoints.reached("regionserver.split.closed");
    long copied = 0;
    for (RegionInfo daughter : List.of(daughterA, daughterB)) {
      Path target = regionDir(daughter);
      if (Files.isDirectory(target)) {
        continue;
      }
      Path source = regionDir(parent);
      if (!Files.isDirectory(source)) {
        throw new IOException("cannot split " + parent.getRegionNameAsString() + ": its data is not on " + serverName);
      }
      Path work = regionsDir.resolve(daughter.getEncodedName() + ".cloning");
      LocalStorageFiles.INSTANCE.deleteRecursively(work);
      try {
        copied += engine.cloneClosed(source, work);
      } catch (RuntimeException e) {
        throw new IOException("cloning " + parent.getRegionNameAsString() + " failed: " + e.getMessage(), e);
      }
      Files.move(work, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      CrashPoints.reached("regionserver.split.cloned-one");
    }
    return new CloneReport((closed - start) / 1_000_000, (System.nanoTime() - closed) / 1_000_000, copied);
  }

  /** Undoes a split that did not reach its point of no return: daughters dropped, the parent served again. */
  @Override
  public void rollBackSplit(RegionInfo parent, TableDescriptor table, RegionInfo daughterA,
      RegionInfo daughterB) throws IOException {
    for (RegionInfo daughter : List.of(daughterA, daughterB)) {
      dropRegion(daughter);
      LocalStorageFiles.INSTANCE.deleteRecursively(regionsDir.resolve(daughter.getEncodedName() + ".cloning"));
    }
    openRegion(parent, table);
  }

  @Override
  public CloneReport closeAndMerge(RegionInfo lower, RegionInfo upper, RegionInfo merged) throws IOException {
    requireEngine();
    return merges.closeAndMerge(lower, upper, merged);
  }

  @Override
  public void rollBackMerge(RegionInfo lower, RegionInfo upper, TableDescriptor table, RegionInfo merged)
      throws IOException {
    merges.rollBackMerge(lower, upper, table, merged);
  }

  // ------------------------------------------------------------------ replicated regions

  /**
   * Lets this server host members of replicated regions, their replication nodes listening on {@code host}
   * at ports of {@code range}; {@code primaries} hears of each member its group elects.
   */
  public void enableReplication(String host, PortRange range, PrimaryReporter primaries) {
    this.ports = new ReplicationPorts(host, range);
    this.primaries = primaries;
  }

  ReplicationPorts ports() throws IOException {
    ReplicationPorts p = ports;
    if (p == null || engine == null) {
      throw new IOException(serverName + " cannot host members of replicated regions");
    }
    return p;
  }

  @Override
  public int replicationPort(RegionInfo region, Set<Integer> taken) throws IOException {
    return ports().allocate(region.getEncodedName(), taken);
  }

  @Override
  public void openMember(RegionInfo info, TableDescriptor table, String group, List<Member> members,
      boolean create) throws IOException {
    ReplicationPorts p = ports();
    splitHolds.daughterOpened(info);
    synchronized (lock(info.getEncodedName())) {
      HostedRegion open = regions.get(info.getEncodedName());
      if (open != null) {
        if (!open.members().equals(members)) {
          regions.put(info.getEncodedName(), new HostedRegion(info, open.table(), open.store(), members));
          nameReplicas(info, members.size());
        }
        return;
      }
      Member self = members.stream().filter(m -> m.isOn(serverName)).findFirst().orElseThrow(() ->
          new IOException(serverName + " is not a member of " + info.getRegionNameAsString() + " " + members));
      String encoded = info.getEncodedName();
      RoleListener onRole = (region, role, primary) -> {
        LOG.info("member {} of {} is {} (primary: {})", self.nodeName(), encoded, role, primary.orElse("none"));
        primaries.roleChanged(encoded);
      };
      ReplicatedRegion store = MemberOpener.open(engine, regionDir(info), info, table, group, members, self, p.host(), create,
          onRole);
      p.inUse(encoded, self.port());
      movedTo.remove(encoded);
      regions.put(encoded, new HostedRegion(info, table, store, members));
      nameReplicas(info, members.size());
      primaries.roleChanged(encoded);
      LOG.info("opened member {} of {} ({})", self.nodeName(), info.getRegionNameAsString(), store.role());
    }
  }

  @Override
  public io.basalt.server.control.SnapshotControl snapshots() {
    return java.util.Objects.requireNonNull(snapshots, "a master's meta server hosts no regions, so no snapshots");
  }

  @Override
  public io.basalt.server.control.GroupMergeControl groupMerges() {
    return memberMerges;
  }

  @Override
  public io.basalt.server.control.GroupSplitControl groupSplits() {
    return memberSplits;
  }

  @Override
  public void transferPrimary(RegionInfo info, ServerName target) throws IOException {
    MemberChanges.transferPrimary(serverName, info, regions.get(info.getEncodedName()), target);
  }

  @Override
  public void joinMember(RegionInfo info, TableDescriptor table, String group, List<Member> members)
      throws IOException {
    openMember(info, table, group, members, false);
    MemberChanges.awaitCaughtUp(serverName, info, regions.get(info.getEncodedName()));
  }

  @Override
  public void deleteMember(RegionInfo info, Member gone) throws IOException {
    MemberChanges.delete(serverName, info, regions.get(info.getEncodedName()), gone);
  }

  /** Lets reads addressed to replicas 1..count-1 of {@code info} reach this server's member. */
  private void nameReplicas(RegionInfo info, int count) {
    for (int i = 1; i < Math.max(count, 2); i++) {
      replicaOf.put(RegionReplicaUtil.getRegionInfoForReplica(info, i).getEncodedName(), info.getEncodedName());
    }
  }

  /** Whether this server hosts a member of {@code region}'s replica group that is not its primary now. */
  boolean isSecondary(RegionInfo region) {
    HostedRegion r = regions.get(region.getEncodedName());
    return r != null && !r.primary();
  }

  /** The replicated regions whose member here is primary now. */
  List<HostedRegion> primaryMembers() {
    return regions.values().stream().filter(r -> r.replicated() && r.primary()).toList();
  }

  /** How many members of replicated regions this server hosts in the given role. */
  public long members(ReplicaRole role) {
    return regions.values().stream().filter(r -> r.store() instanceof ReplicatedRegion m && m.role() == role).count();
  }

  /** The most log entries any secondary of a primary here lacks: how far the slowest copy is behind. */
  public long maxMemberLag() {
    return regions.values().stream().filter(r -> r.store() instanceof ReplicatedRegion m
            && m.role() == ReplicaRole.PRIMARY)
        .flatMap(r -> ((ReplicatedRegion) r.store()).memberLag().values().stream())
        .mapToLong(Long::longValue).max().orElse(0);
  }

  HostedRegion hostedByEncodedName(String encoded) {
    return regions.get(encoded);
  }

  /** The table settings a served region was opened with (null if not served). */
  TableDescriptor tableOf(RegionInfo region) {
    HostedRegion r = regions.get(region.getEncodedName());
    return r == null ? null : r.table();
  }

  // ------------------------------------------------------------------ move

  /** Enables moves in and out of this server (a server without a mover can only split). */
  public void enableMoves(io.basalt.server.transfer.SegmentServer segments,
      io.basalt.server.transfer.SegmentFetcher fetcher, PrefetchReports reports) {
    mover = new RegionMover(engine, regionsDir, segments, fetcher, reports);
  }

  private RegionMover mover() throws IOException {
    RegionMover m = mover;
    if (m == null) {
      throw new IOException(serverName + " cannot take part in moves");
    }
    return m;
  }

  boolean isMovingOut(String encoded) {
    RegionMover m = mover;
    return m != null && m.isMovingOut(encoded);
  }

  @Override
  public MoveSource preClose(RegionInfo region) throws IOException {
    HostedRegion r = lookup.region(region.getRegionName());
    return mover().pin(region.getEncodedName(), r.store().logSegments());
  }

  @Override
  public void prefetch(RegionInfo region, MoveSource source) throws IOException {
    synchronized (lock(region.getEncodedName())) {
      RegionMover m = mover();
      if (regions.containsKey(region.getEncodedName())) {
        m.reportPrefetched(region); // already moved in: a repeated call
      } else {
        m.startPrefetch(region, source);
      }
    }
  }

  @Override
  public MoveSource closeForMove(RegionInfo region) throws IOException {
    RegionMover m = mover();
    closeRegion(region.getEncodedName());
    CrashPoints.reached("regionserver.move.closed");
    return m.exportClosed(region.getEncodedName());
  }

  @Override
  public long openMoved(RegionInfo region, TableDescriptor table, MoveSource source) throws IOException {
    synchronized (lock(region.getEncodedName())) {
      if (regions.containsKey(region.getEncodedName())) {
        return 0;
      }
      RegionMover m = mover();
      m.stopPrefetch(region);
      long bytes = Files.isDirectory(regionDir(region)) ? 0 : m.fetch(region, source);
      m.install(region);
      openLocked(region, table, false);
      return bytes;
    }
  }

  @Override
  public void finishMoveAway(RegionInfo region, ServerName target) throws IOException {
    synchronized (lock(region.getEncodedName())) {
      mover().release(region.getEncodedName());
      closeLocked(region.getEncodedName());
      LocalStorageFiles.INSTANCE.deleteRecursively(regionDir(region));
      movedTo.put(region.getEncodedName(), target);
    }
  }

  @Override
  public void abortMoveAway(RegionInfo region, TableDescriptor table) throws IOException {
    synchronized (lock(region.getEncodedName())) {
      mover().release(region.getEncodedName());
      openLocked(region, table, false);
    }
  }

  @Override
  public void abortMoveIn(RegionInfo region) throws IOException {
    synchronized (lock(region.getEncodedName())) {
      closeLocked(region.getEncodedName());
      mover().stopPrefetch(region);
      mover().discard(region);
    }
  }

  /** Sizes of the regions served now, for split thresholds and the balancer. */
  public Map<RegionInfo, io.basalt.storage.region.RegionStats> regionStats() {
    Map<RegionInfo, io.basalt.storage.region.RegionStats> out = new java.util.HashMap<>();
    for (HostedRegion r : regions.values()) {
      try {
        out.put(r.info(), r.store().stats());
      } catch (RuntimeException e) {
        // closing right now
      }
    }
    return out;
  }

  /** Closes every region (the session was lost: the master may now reassign them). */
  public void closeAll() {
    for (String name : List.copyOf(regions.keySet())) {
      try {
        closeRegion(name);
      } catch (RuntimeException e) {
        LOG.warn("closing region {} failed", name, e);
      }
    }
  }

  public Region store(String encodedName) {
    HostedRegion r = regions.get(encodedName);
    return r == null ? null : r.store();
  }

  @Override
  public void close() {
    leases.close();
    compactions.close();
    if (mover != null) {
      mover.close();
    }
    closeAll();
  }
}
