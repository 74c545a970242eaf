package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.PendingDrops;
import io.basalt.server.catalog.Primaries;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.catalog.TransactionStore;
import io.basalt.server.control.PrefetchReports;
import io.basalt.server.master.protocol.GroupSplitProtocol;
import io.basalt.server.master.protocol.MergeProtocol;
import io.basalt.server.master.protocol.MoveProtocol;
import io.basalt.server.master.protocol.Outcome;
import io.basalt.server.master.protocol.Protocol;
import io.basalt.server.master.protocol.SplitProtocol;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableState;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's work: tables, namespaces and their regions, kept in the {@link Catalog}, with regions opened
 * on the live region servers. Every operation completes before it returns (the RPC layer still hands
 * clients a procedure id to poll, as HBase does). An unreplicated region's data lives on the disk of the
 * server that hosts it, so while that server is down its regions stay assigned to it, unavailable, and are
 * opened there again when it returns; a replicated region is a replica group of members on several servers
 * ({@link ReplicatedRegions}) that elects its own primary.
 */
public final class Master {
  private static final Logger LOG = LoggerFactory.getLogger(Master.class);

  private final Catalog catalog;
  private final ServerManager servers;
  private final ServerName name;
  private final TransactionStore transactions;
  private final OperationHistory history = new OperationHistory();
  private final ProtocolDriver protocols;
  private final ReplicatedRegions replicated;
  private final MemberChangePlanner memberChanges;
  private final TransactionRecovery recovery;
  private final InFlight inFlight;
  private final Namespaces namespaces;
  private final ReplicaViews views;
  private final LeftoverMembers leftovers;
  private final TableLifecycle tables;
  private volatile boolean balancerOn = true;
  private final long balancePauseMillis;
  /** One balancer run at a time (scheduled, after a join, or Admin.balance), each planning afresh. */
  private final Object balanceLock = new Object();
  private long lastRegionId;
  private volatile boolean reconcilePending;
  /** Regions the last reconcile left to a transaction that held them: once it lets go, reconcile again. */
  private volatile Set<String> leftToTransactions = Set.of();

  /** {@code primaries} null: nothing is replicated (standalone); else new regions get {@code replicationFactor} copies. */
  public Master(Catalog catalog, ServerManager servers, ServerName name, TransactionStore transactions,
      PendingDrops pendingDrops, PrefetchReports prefetches, long balancePauseMillis, Primaries primaries,
      int replicationFactor) {
    this.balancePauseMillis = balancePauseMillis;
    this.catalog = catalog;
    this.servers = servers;
    this.name = name;
    this.transactions = transactions;
    this.replicated = new ReplicatedRegions(catalog, servers, primaries, replicationFactor);
    this.protocols = new ProtocolDriver(catalog, servers, transactions, pendingDrops, prefetches, history, replicated);
    this.memberChanges = new MemberChangePlanner(catalog, servers, replicated);
    this.recovery = new TransactionRecovery(transactions, protocols, this::table);
    this.inFlight = new InFlight(transactions, catalog);
    this.namespaces = new Namespaces(catalog, this);
    this.views = new ReplicaViews(catalog, servers, replicated, inFlight);
    this.leftovers = new LeftoverMembers(catalog, servers, inFlight, pendingDrops);
    this.tables = new TableLifecycle(this, catalog, servers, replicated, inFlight);
  }

  /** Snapshots of the replicated regions for the re-replication and member-balance planners. */
  ReplicaViews views() {
    return views;
  }

  public OperationHistory history() {
    return history;
  }

  public ServerName name() {
    return name;
  }

  public Catalog catalog() {
    return catalog;
  }

  public Namespaces namespaces() {
    return namespaces;
  }

  /** The replicated regions' side of the catalog: copies per table, primaries, degraded regions. */
  public ReplicatedRegions replicas() {
    return replicated;
  }

  public ServerManager servers() {
    return servers;
  }

  /** A region server registered: serve its regions again (and any unassigned ones). */
  public synchronized void serverUp(ServerName server) {
    servers.up(server);
    LOG.info("region server {} is online", server);
    // Before assignment: a member deleted while its server was down is in no group, and its directory would
    // stand in the way of a later copy of the same region placed here.
    leftovers.clean(server);
    reconcile();
  }

  /** A region server's registration vanished: its regions stay assigned to it, unavailable until it returns. */
  public synchronized void serverDown(ServerName server) {
    servers.down(server);
    long hosted = catalog.allRegions().stream().filter(r -> server.equals(r.server())).count();
    LOG.warn("region server {} is gone; its {} regions are unavailable until it returns or its members are rebuilt",
        server, hosted);
  }

  /**
   * Brings the RegionMap and the live servers into agreement: each region of an enabled table is opened
   * where its data is (its server, that server restarted under a new start code, or a live server that
   * reports the region's directory); a region never placed goes to the least loaded live server. Regions
   * whose server is down stay as they are. Safe to repeat: opening an open region does nothing.
   */
  public synchronized void reconcile() {
    reconcilePending = !recovery.recoverAll();
    Set<String> held;
    Map<String, List<io.basalt.server.catalog.Member>> owned;
    try {
      // A region a transaction still holds is its protocol's to open (and another server's copy of it may be
      // stale): never assigned here, except the members a member change does not own (its group needs them).
      held = inFlight.held();
      owned = inFlight.ownedMembers();
    } catch (IOException e) {
      reconcilePending = true;
      LOG.warn("no assignment while the transactions in flight cannot be read: {}", e.getMessage());
      return;
    }
    Map<String, ServerName> stored = null;
    List<ReplicatedRegions.Opening> groups = new ArrayList<>();
    Set<String> skippedHeld = new HashSet<>();
    for (TableDescriptor t : catalog.tables()) {
      if (catalog.state(t.getTableName()).orElse(TableState.State.ENABLED) != TableState.State.ENABLED) {
        continue;
      }
      for (RegionRecord r : catalog.regions(t.getTableName())) {
        String encoded = r.info().getEncodedName();
        if (!RegionRecord.OPEN.equals(r.state())) {
          continue;
        }
        if (held.contains(encoded) && !owned.containsKey(encoded)) {
          // A protocol that skipped a member on a server that was down leaves it to assignment (ProtocolDriver).
          skippedHeld.add(encoded);
          continue;
        }
        try {
          if (r.replicated()) {
            groups.add(new ReplicatedRegions.Opening(t, r, owned.getOrDefault(encoded, List.of())));
            continue;
          }
          Optional<ServerName> where = servers.isLive(r.server()) ? Optional.of(r.server()) : servers.liveAt(r.server());
          if (where.isEmpty()) {
            if (stored == null) {
              stored = servers.storedRegions();
            }
            where = Optional.ofNullable(stored.get(r.info().getEncodedName()));
          }
          boolean placed = r.server() != null;
          if (where.isEmpty() && !placed) {
            where = leastLoaded();
          }
          if (where.isPresent()) {
            open(t, r.info(), where.get(), !placed);
          }
        } catch (IOException e) {
          reconcilePending = true;
          LOG.warn("cannot open {} yet: {}", r.info().getRegionNameAsString(), e.toString());
        }
      }
    }
    leftToTransactions = Set.copyOf(skippedHeld);
    if (!replicated.openAll(groups)) {
      reconcilePending = true;
    }
  }

  /**
   * Runs a split or move to its end. A protocol left half done (a server it needs went away) is finished
   * or undone by the next reconciliation; the caller is told it did not happen (yet).
   */
  private Outcome drive(Protocol p, TableDescriptor table) throws IOException {
    try {
      return protocols.drive(p, table);
    } catch (ProtocolDriver.Abandoned e) {
      reconcilePending = true;
      throw new org.apache.hadoop.hbase.HBaseIOException(e.getMessage());
    }
  }

  // ------------------------------------------------------------------ split

  /**
   * Splits a region at {@code row}, or at its middle row when {@code row} is null (found by the hosting
   * server with a B+-tree cursor skip). Returns when the daughters are served and published.
   */
  public synchronized void split(byte[] regionName, byte[] row) throws IOException {
    RegionRecord r = regionByName(regionName);
    TableDescriptor table = table(r.info().getTable());
    // A replicated region's record names its founding member's server as first placed (a restart changes its
    // start code): whether its members are up is the group split's own check, retriable.
    if (!RegionRecord.OPEN.equals(r.state()) || (!r.replicated() && !servers.isLive(r.server()))) {
      throw new org.apache.hadoop.hbase.client.DoNotRetryRegionException(r.info().getRegionNameAsString()
          + " is not online (" + r.state() + " on " + r.server() + "); cannot split it now");
    }
    inFlight.checkNotHeld(r.info());
    Optional<byte[]> at = row == null || row.length == 0 ? Optional.empty() : Optional.of(row);
    LOG.info("splitting {} at {}", r.info().getRegionNameAsString(), at.map(Bytes::toStringBinary).orElse("its middle row"));
    Protocol p = r.replicated() ? replicated.split(r, at, nextRegionId())
        : SplitProtocol.begin("split-" + r.info().getEncodedName(), r.info(), r.server(), at, nextRegionId());
    throwUnless(drive(p, table), Outcome.Kind.SPLIT);
  }

  // ------------------------------------------------------------------ merge

  /**
   * Merges two adjacent regions of a table (named by full or encoded name) into one, as HBase's
   * MergeTableRegionsProcedure does ({@link MergeRules} says which merges are refused). Two regions on different
   * servers are brought together first: the upper one moves to the lower one's server. Returns when the merged
   * region is served and published.
   */
  public synchronized void merge(List<byte[]> regionNames, boolean forcible) throws IOException {
    List<RegionRecord> named = new ArrayList<>();
    for (byte[] n : regionNames) {
      named.add(regionByName(n));
    }
    if (!named.isEmpty() && !table(named.get(0).info().getTable()).isMergeEnabled()) {
      throw new DoNotRetryIOException("Merge of " + RegionInfo.getShortNameToLog(named.stream().map(RegionRecord::info)
          .toList()) + " failed as region merge is disabled for the table");
    }
    List<RegionRecord> pair = MergeRules.check(named, forcible);
    TableDescriptor table = table(pair.get(0).info().getTable());
    if (pair.get(0).replicated() || pair.get(1).replicated()) {
      for (RegionRecord r : pair) {
        inFlight.checkNotHeld(r.info());
      }
      long id = Math.max(nextRegionId(), Math.max(pair.get(0).info().getRegionId(), pair.get(1).info().getRegionId())
          + 1);
      LOG.info("merging the replicated {} and {}", pair.get(0).info().getRegionNameAsString(),
          pair.get(1).info().getRegionNameAsString());
      GroupMerges merges = new GroupMerges(servers, replicated);
      RegionRecord upper = pair.get(1);
      var move = GroupMerges.colocatingMove(pair.get(0), upper, merges.primaryOf(upper));
      if (move.isPresent()) {
        // The copy is local to a server holding both, as an unreplicated merge moves the upper region first.
        LOG.info("moving the member of {} on {} to {} so that a server holds both regions to merge",
            upper.info().getRegionNameAsString(), move.get()[0], move.get()[1]);
        changeMembers(upper, move.get()[0], move.get()[1], false);
        upper = regionByName(upper.info().getRegionName());
      }
      throwUnless(drive(merges.begin(pair.get(0), upper, id), table), Outcome.Kind.MERGED);
      return;
    }
    for (RegionRecord r : pair) {
      inFlight.checkNotHeld(r.info());
      if (!servers.isLive(r.server())) {
        throw new org.apache.hadoop.hbase.HBaseIOException(r.info().getRegionNameAsString() + " is on "
            + r.server() + ", which is not online; cannot merge it now");
      }
    }
    if (!pair.get(0).server().equals(pair.get(1).server())) {
      move(pair.get(1).info().getRegionName(), pair.get(0).server());
      pair = List.of(pair.get(0), regionByName(pair.get(1).info().getRegionName()));
    }
    RegionInfo lower = pair.get(0).info();
    RegionInfo upper = pair.get(1).info();
    long id = Math.max(nextRegionId(), Math.max(lower.getRegionId(), upper.getRegionId()) + 1);
    LOG.info("merging {} and {} on {}", lower.getRegionNameAsString(), upper.getRegionNameAsString(),
        pair.get(0).server());
    throwUnless(drive(MergeProtocol.begin("merge-" + lower.getEncodedName(), lower, upper, pair.get(0).server(), id),
        table), Outcome.Kind.MERGED);
  }

  /** Runs a snapshot protocol to its end (see {@link Snapshots}); the caller holds this master's lock. */
  Outcome driveSnapshot(Protocol p, TableDescriptor table) throws IOException {
    return drive(p, table);
  }

  InFlight inFlight() {
    return inFlight;
  }

  /** The caller's error for a split or move that did not happen. */
  private static void throwUnless(Outcome outcome, Outcome.Kind wanted) throws IOException {
    if (outcome.kind() == Outcome.Kind.REFUSED) {
      throw new DoNotRetryIOException(outcome.reason());
    }
    if (outcome.kind() != wanted) {
      throw new org.apache.hadoop.hbase.HBaseIOException(outcome.reason());
    }
  }

  // ------------------------------------------------------------------ move and balance

  /**
   * Moves a region to {@code target}, or to the least loaded other live server when it is null. Returns
   * when the target serves it and meta says so.
   */
  public synchronized void move(byte[] regionName, ServerName target) throws IOException {
    RegionRecord r = regionByName(regionName);
    TableDescriptor table = table(r.info().getTable());
    if (r.replicated() && RegionRecord.OPEN.equals(r.state())) {
      inFlight.checkNotHeld(r.info());
      Optional<ServerName> live = target == null ? Optional.empty() : servers.liveAt(target);
      if (live.isPresent() && r.memberOn(live.get()).isEmpty()) {
        // HBase's move means "served from there": the primary's copy goes there, and is primary there.
        changeMembers(r, replicated.primaryOf(r), live.get(), true);
      } else {
        replicated.movePrimary(r, target);
      }
      return;
    }
    if (!RegionRecord.OPEN.equals(r.state()) || !servers.isLive(r.server())) {
      throw new org.apache.hadoop.hbase.client.DoNotRetryRegionException(r.info().getRegionNameAsString()
          + " is not online (" + r.state() + " on " + r.server() + "); cannot move it now");
    }
    if (target == null) {
      Map<ServerName, Integer> load = load();
      load.remove(r.server());
      load.keySet().removeIf(servers::isDecommissioned);
      target = load.entrySet().stream().min(Map.Entry.<ServerName, Integer>comparingByValue()
          .thenComparing(Map.Entry.comparingByKey())).map(Map.Entry::getKey)
          .orElseThrow(() -> new DoNotRetryIOException("no other region server to move "
              + r.info().getRegionNameAsString() + " to"));
    } else {
      ServerName asked = target;
      target = servers.liveAt(asked).orElseThrow(() -> new org.apache.hadoop.hbase.HBaseIOException(
          "region server " + asked + " is not online"));
    }
    if (target.equals(r.server())) {
      return;
    }
    inFlight.checkNotHeld(r.info());
    LOG.info("moving {} from {} to {}", r.info().getRegionNameAsString(), r.server(), target);
    Outcome outcome = drive(MoveProtocol.begin("move-" + r.info().getEncodedName(), r.info(), r.server(), target),
        table);
    throwUnless(outcome, Outcome.Kind.MOVED);
  }

  /**
   * Changes a replicated region's copies: removes the one on {@code from} and adds one on {@code to}, the
   * new one filled from the others while the region keeps serving. {@code from} null adds a copy; {@code to}
   * null removes one without replacement (refused if fewer than a majority of the table's copies would be
   * left). Returns when the catalog lists the new members. Retriable HBaseIOException when it cannot
   * proceed now (a server down, the region held by another change, the group without a primary); the
   * region is held by the change's transaction until it ends, or until recovery finishes or undoes it.
   */
  public synchronized void replaceMember(RegionInfo region, ServerName from, ServerName to) throws IOException {
    changeMembers(regionByName(region.getRegionName()), from, to, false);
  }

  private void changeMembers(RegionRecord r, ServerName from, ServerName to, boolean makePrimary) throws IOException {
    TableDescriptor table = table(r.info().getTable());
    inFlight.checkNotHeldNow(r.info());
    throwUnless(drive(memberChanges.plan(r, replicated.factor(table), from, to, makePrimary), table),
        Outcome.Kind.REPLACED);
    // A member whose server restarted while the region was held was skipped by assignment: open it now.
    try {
      replicated.open(table, catalog.region(r.info().getEncodedName()).orElseThrow(), false);
    } catch (IOException e) {
      reconcilePending = true;
      LOG.warn("not every member of {} is open yet: {}", r.info().getRegionNameAsString(), e.getMessage());
    }
  }

  /** The moves that would balance region counts now (retired parents and regions in transition excluded). */
  public synchronized List<Balancer.Move> balancePlan() {
    Set<String> held;
    try {
      held = inFlight.held();
    } catch (IOException e) {
      LOG.warn("no balancing while the transactions in flight cannot be read: {}", e.getMessage());
      return List.of();
    }
    // Decommissioned servers keep what they have (offloading is re-replication's) and get nothing new.
    Map<ServerName, List<RegionInfo>> assignment = new HashMap<>();
    for (ServerName s : servers.placeable()) {
      assignment.put(s, new ArrayList<>());
    }
    for (RegionRecord r : catalog.allRegions()) {
      List<RegionInfo> on = r.server() == null ? null : assignment.get(r.server());
      if (on != null && RegionRecord.OPEN.equals(r.state()) && !r.replicated()) {
        on.add(r.info());
      }
    }
    // A region a transaction holds counts where it is but stays there; the next run evens out the rest.
    List<Balancer.Move> plan = new ArrayList<>(Balancer.plan(assignment).stream()
        .filter(m -> !held.contains(m.region().getEncodedName())).toList());
    plan.addAll(replicated.primaryBalancePlan(held));
    return plan;
  }

  public boolean balancerOn() {
    return balancerOn;
  }

  /** Returns the previous setting. */
  public boolean setBalancerOn(boolean on) {
    boolean previous = balancerOn;
    balancerOn = on;
    return previous;
  }

  /**
   * Carries out the balance plan one move at a time, pausing between moves so clients
   * feel one short blip at a time (paper §IV.C). Returns the number of moves made.
   */
  public int balance() throws InterruptedException {
    synchronized (balanceLock) {
      return BalanceRun.run(this, balancePauseMillis);
    }
  }

  /** A region by full region name or encoded name. */
  private RegionRecord regionByName(byte[] name) throws org.apache.hadoop.hbase.UnknownRegionException {
    String encoded = RegionInfo.encodeRegionName(name);
    Optional<RegionRecord> r = catalog.region(encoded);
    if (r.isEmpty()) {
      r = catalog.region(Bytes.toString(name));
    }
    return r.orElseThrow(() -> new org.apache.hadoop.hbase.UnknownRegionException(Bytes.toStringBinary(name)));
  }

  /** Runs {@link #reconcile()} again if the last one could not open everything (a server was busy or gone). */
  public void retryReconcile() {
    boolean released = false;
    if (!reconcilePending && !leftToTransactions.isEmpty()) {
      try {
        released = !inFlight.held().containsAll(leftToTransactions);
      } catch (IOException e) {
        released = true; // reconcile says why
      }
    }
    if (reconcilePending || released) {
      reconcile();
    }
  }

  /** The live server with the fewest regions that may take new ones (not decommissioned). */
  Optional<ServerName> leastLoaded() {
    Map<ServerName, Integer> load = load();
    load.keySet().removeIf(servers::isDecommissioned);
    return load.entrySet().stream().min(Map.Entry.<ServerName, Integer>comparingByValue()
        .thenComparing(Map.Entry.comparingByKey())).map(Map.Entry::getKey);
  }

  /** Regions assigned to each live server. */
  public Map<ServerName, Integer> load() {
    Map<ServerName, Integer> load = new HashMap<>();
    for (ServerName s : servers.live()) {
      load.put(s, 0);
    }
    for (RegionRecord r : catalog.allRegions()) {
      if (r.server() != null && load.containsKey(r.server()) && !RegionRecord.SPLIT.equals(r.state())) {
        load.merge(r.server(), 1, Integer::sum);
      }
    }
    return load;
  }

  /** {@code create}: a region never placed, which starts empty; any other must find its data there. */
  void open(TableDescriptor table, RegionInfo info, ServerName server, boolean create) throws IOException {
    if (create) {
      servers.control(server).createRegion(info, table);
    } else {
      servers.control(server).openRegion(info, table);
    }
    Optional<RegionRecord> old = catalog.region(info.getEncodedName());
    if (old.isEmpty() || !server.equals(old.get().server()) || !RegionRecord.OPEN.equals(old.get().state())) {
      catalog.putRegion(new RegionRecord(info, server, RegionRecord.OPEN));
    }
  }

  public TableDescriptor table(TableName name) throws TableNotFoundException {
    return catalog.table(name).orElseThrow(() -> new TableNotFoundException(name));
  }

  /** Region ids are creation times in ms, unique and increasing (they name the region). */
  synchronized long nextRegionId() {
    lastRegionId = Math.max(System.currentTimeMillis(), lastRegionId + 1);
    return lastRegionId;
  }

  // ------------------------------------------------------------------ table lifecycle, under this master's lock

  public synchronized void createTable(TableDescriptor asked, byte[][] splitKeys) throws IOException {
    tables.create(asked, splitKeys);
  }

  public synchronized void disableTable(TableName name) throws IOException {
    tables.disable(name);
  }

  public synchronized void enableTable(TableName name) throws IOException {
    tables.enable(name);
  }

  public synchronized void deleteTable(TableName name) throws IOException {
    tables.delete(name);
  }

  public synchronized void truncateTable(TableName name, boolean preserveSplits) throws IOException {
    tables.truncate(name, preserveSplits);
  }

  /** See {@link TableLifecycle#flush}; not under the lock (a flush changes no catalog state). */
  public int flushTable(TableName name) throws IOException {
    return tables.flush(name);
  }

  public synchronized void modifyTable(TableDescriptor asked) throws IOException {
    tables.modify(asked);
  }
}
