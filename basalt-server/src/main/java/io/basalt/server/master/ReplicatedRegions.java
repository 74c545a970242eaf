package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.Primaries;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.master.protocol.GroupSplitProtocol;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseIOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's side of replicated regions: how many copies a table asks for, placing a new region's
 * members (a replication port each, recorded in the catalog before any member starts), and opening,
 * closing and dropping members on their servers. Which member is primary is the group's own election.
 */
public final class ReplicatedRegions {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedRegions.class);

  /**
   * Member opens run at once during reconciliation: enough to refill a returning server's groups together,
   * few enough that the refills (each a log stream or network restore from a live member) do not swamp its disk.
   */
  private static final int PARALLEL_OPENS = 8;

  private final Catalog catalog;
  private final ServerManager servers;
  private final Primaries primaries;
  private final int defaultFactor;
  /** The re-replication chore's last plan, once the active master runs it. */
  private volatile java.util.function.Supplier<ReplicaRepair.Plan> repairs = () -> null;

  /** {@code defaultFactor} 1 with replication off (standalone: nothing is replicated). */
  ReplicatedRegions(Catalog catalog, ServerManager servers, Primaries primaries, int defaultFactor) {
    this.catalog = catalog;
    this.servers = servers;
    this.primaries = primaries;
    this.defaultFactor = defaultFactor;
  }

  /** Copies the table's regions get: its REGION_REPLICATION (see {@link #withFactor}); 1 unreplicated. */
  public int factor(TableDescriptor table) {
    return primaries == null ? 1 : table.getRegionReplication();
  }

  /**
   * A new table's descriptor as stored: REGION_REPLICATION says how many copies its regions get, the
   * cluster's default unless the client set it (so describe, and HBase tools, see the real figure).
   */
  TableDescriptor withFactor(TableDescriptor table) throws DoNotRetryIOException {
    if (table.getValue(TableDescriptorBuilder.REGION_REPLICATION) != null && table.getRegionReplication() < 1) {
      throw new DoNotRetryIOException("Table region replication should be at least one.");
    }
    if (primaries == null || table.getValue(TableDescriptorBuilder.REGION_REPLICATION) != null) {
      return table;
    }
    return TableDescriptorBuilder.newBuilder(table).setRegionReplication(defaultFactor).build();
  }

  /**
   * A changed descriptor of an existing table, as stored: the copies its regions have cannot change (yet),
   * so a REGION_REPLICATION left out keeps the stored one and a different one is refused.
   */
  TableDescriptor keepFactor(TableDescriptor current, TableDescriptor asked) throws DoNotRetryIOException {
    if (asked.getValue(TableDescriptorBuilder.REGION_REPLICATION) == null) {
      return current.getValue(TableDescriptorBuilder.REGION_REPLICATION) == null ? asked
          : TableDescriptorBuilder.newBuilder(asked).setRegionReplication(current.getRegionReplication()).build();
    }
    if (asked.getRegionReplication() != current.getRegionReplication()) {
      throw new DoNotRetryIOException("cannot change REGION_REPLICATION of " + current.getTableName() + " from "
          + current.getRegionReplication() + " to " + asked.getRegionReplication() + ": this Basalt keeps the copies "
          + "a table was created with");
    }
    return asked;
  }

  /** Places a new region's members on the least loaded live servers and opens them, the founder first. */
  void create(TableDescriptor table, RegionInfo info, int factor) throws IOException {
    List<ServerName> chosen = ReplicaPlacement.choose(memberLoad(), primaryLoad(), factor);
    if (chosen.isEmpty()) {
      throw new org.apache.hadoop.hbase.PleaseHoldException("no region server may take " + info.getRegionNameAsString()
          + " now: none is online, or every one is decommissioned");
    }
    if (chosen.size() < factor) {
      LOG.warn("{} gets {} of its {} copies: only {} region servers are up; it runs degraded until more join",
          info.getRegionNameAsString(), chosen.size(), factor, chosen.size());
    }
    List<Member> members = new ArrayList<>();
    for (ServerName s : chosen) {
      Set<Integer> taken = portsTakenOn(s.getHostname());
      members.forEach(m -> {
        if (m.server().getHostname().equals(s.getHostname())) {
          taken.add(m.port());
        }
      });
      members.add(new Member(s, servers.control(s).replicationPort(info, taken)));
    }
    RegionRecord r = RegionRecord.replicated(info, RegionRecord.OPEN, members);
    catalog.putRegion(r);
    open(table, r, true);
  }

  /**
   * Opens the region's members on their live servers (a member whose server is down opens when it
   * returns). With {@code create} the first member founds the group and the others join it.
   */
  void open(TableDescriptor table, RegionRecord r, boolean create) throws IOException {
    open(table, r, create, List.of());
  }

  /** As {@link #open(TableDescriptor, RegionRecord, boolean)}, leaving {@code except} alone (a change owns them). */
  void open(TableDescriptor table, RegionRecord r, boolean create, List<Member> except) throws IOException {
    IOException failed = null;
    for (Member m : r.members()) {
      Optional<ServerName> live = servers.liveAt(m.server());
      if (live.isEmpty() || except.stream().anyMatch(e -> e.isOn(m.server()))) {
        continue;
      }
      try {
        servers.control(live.get()).openMember(r.info(), table, r.group(), r.members(), create);
      } catch (IOException e) {
        if (create && m == r.members().get(0)) {
          throw e; // no group to join
        }
        LOG.warn("cannot open the member of {} on {} yet: {}", r.info().getRegionNameAsString(), live.get(),
            e.getMessage());
        failed = e;
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  /** A replicated region to open on the live servers of its members, but for those a member change owns. */
  record Opening(TableDescriptor table, RegionRecord region, List<Member> except) {}

  /**
   * Opens many regions' members at once, as reconciliation does when a server returns: a member that came
   * back without its data is refilled from its group before its open returns (seconds per region), so one
   * after another a wiped server would leave most of its groups a member short for minutes. Returns whether
   * every member on a live server opened (the others are logged and retried by the next reconciliation).
   */
  boolean openAll(List<Opening> regions) {
    if (regions.isEmpty()) {
      return true;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(PARALLEL_OPENS, regions.size()), r -> {
      Thread t = new Thread(r, "basalt-member-opener");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<Boolean>> opened = new ArrayList<>();
      for (Opening o : regions) {
        opened.add(pool.submit(() -> {
          try {
            open(o.table(), o.region(), false, o.except());
            return true;
          } catch (IOException | RuntimeException e) {
            LOG.warn("cannot open {} yet: {}", o.region().info().getRegionNameAsString(), e.toString());
            return false;
          }
        }));
      }
      boolean all = true;
      for (Future<Boolean> f : opened) {
        all &= f.get();
      }
      return all;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException("a member open failed unexpectedly", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The split of a replicated region, each member cloning its own log: every member must be up (a
   * retriable error if not; the split trigger asks again later).
   */
  GroupSplitProtocol split(RegionRecord r, Optional<byte[]> at, long daughterRegionId) throws IOException {
    for (Member m : r.members()) {
      if (servers.liveAt(m.server()).isEmpty()) {
        throw new HBaseIOException("cannot split " + r.info().getRegionNameAsString() + " now: its member on "
            + m.server().getAddress() + " is down, and every member must be up to split");
      }
    }
    ServerName primary = servers.liveAt(primaryOf(r)).orElseThrow(() ->
        new HBaseIOException(r.info().getRegionNameAsString() + " has no live primary now"));
    return GroupSplitProtocol.begin("gsplit-" + r.info().getEncodedName(), r.info(), r.group(), r.members(), primary,
        at, daughterRegionId);
  }

  /** Stops serving every member (table disabled); the data stays where it is. */
  void close(RegionRecord r) throws IOException {
    for (Member m : r.members()) {
      Optional<ServerName> live = servers.liveAt(m.server());
      if (live.isPresent()) {
        servers.control(live.get()).closeRegion(r.info());
      }
    }
  }

  /** Deletes every live member's copy (a member that is down deletes its copy when it returns). */
  void drop(RegionRecord r) throws IOException {
    for (Member m : r.members()) {
      Optional<ServerName> live = servers.liveAt(m.server());
      if (live.isPresent()) {
        servers.control(live.get()).dropRegion(r.info());
      }
    }
    try {
      primaries.remove(r.info().getEncodedName());
    } catch (Exception e) {
      throw new IOException("forgetting the primary of " + r.info().getRegionNameAsString() + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Makes the member on {@code asked} the region's primary (on the member hosting the fewest primaries when
   * null): JE's master transfer, no data moves. Returns once the new primary is published. {@code asked}
   * must hold a copy: moving a copy to a server without one is a member change ({@code Master.replaceMember}).
   */
  void movePrimary(RegionRecord r, ServerName asked) throws IOException {
    String name = r.info().getRegionNameAsString();
    ServerName primary = livePrimary(r);
    ServerName target;
    if (asked == null) {
      Map<ServerName, Integer> load = primaryLoad();
      target = r.members().stream().map(m -> servers.liveAt(m.server())).flatMap(Optional::stream)
          .filter(s -> !s.equals(primary) && !servers.isDecommissioned(s))
          .min(java.util.Comparator.<ServerName>comparingInt(s -> load.getOrDefault(s, 0))
              .thenComparing(java.util.Comparator.naturalOrder()))
          .orElseThrow(() -> new DoNotRetryIOException("no other live member of " + name + " to move its primary to"));
    } else {
      target = servers.liveAt(asked).orElseThrow(() -> new HBaseIOException("region server " + asked
          + " is not online"));
      if (r.memberOn(target).isEmpty()) {
        throw new DoNotRetryIOException(name + " has no copy on " + target);
      }
    }
    handOver(r, primary, target);
  }

  /**
   * A member change's hand-over ({@code Action.TransferPrimary}): with {@code awayFrom} null, makes the
   * member on {@code to} primary; otherwise, only if the primary is on {@code awayFrom}, hands it to
   * {@code to} or (null) to another live member. Retriable failure while the group has no live primary.
   */
  void transferPrimary(RegionRecord r, ServerName to, ServerName awayFrom) throws IOException {
    String name = r.info().getRegionNameAsString();
    ServerName primary = livePrimary(r);
    if (awayFrom != null && !primary.getAddress().equals(awayFrom.getAddress())) {
      return;
    }
    ServerName target = to != null ? servers.liveAt(to).orElseThrow(() -> new HBaseIOException("region server "
        + to + " is not online")) : r.members().stream().map(m -> servers.liveAt(m.server()))
            .flatMap(Optional::stream).filter(s -> !s.getAddress().equals(primary.getAddress())).sorted().findFirst()
            .orElseThrow(() -> new HBaseIOException("no other live member of " + name + " to hand its primary to"));
    handOver(r, primary, target);
  }

  private ServerName livePrimary(RegionRecord r) throws HBaseIOException {
    ServerName reported = primaryOf(r);
    return servers.liveAt(reported).orElseThrow(() -> new HBaseIOException(r.info().getRegionNameAsString()
        + " has no live primary now; try again once its group elected one"));
  }

  /** Has the primary hand its role to {@code target} and waits until the group reports it. */
  private void handOver(RegionRecord r, ServerName primary, ServerName target) throws IOException {
    String name = r.info().getRegionNameAsString();
    if (target.getAddress().equals(primary.getAddress())) {
      return;
    }
    LOG.info("moving the primary of {} from {} to {}", name, primary, target);
    servers.control(primary).transferPrimary(r.info(), target);
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (!primaryOf(current(r)).getAddress().equals(target.getAddress())) {
      if (System.nanoTime() > deadline) {
        throw new HBaseIOException(target + " took over " + name + " but has not reported it yet");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("waiting for the new primary of " + name);
      }
    }
  }

  /** The region's record as the catalog holds it now (a member change may have published new members). */
  private RegionRecord current(RegionRecord r) {
    return catalog.region(r.info().getEncodedName()).orElse(r);
  }

  /**
   * Primary moves that even out how many primaries each live server holds (each to a server that already
   * has a copy, so nothing is copied), one move per region, the busiest servers first.
   */
  List<Balancer.Move> primaryBalancePlan(Set<String> held) {
    Map<ServerName, Integer> load = primaryLoad();
    servers.live().forEach(s -> load.putIfAbsent(s, 0));
    List<Balancer.Move> plan = new ArrayList<>();
    Set<String> planned = new HashSet<>();
    while (true) {
      ServerName busiest = load.entrySet().stream().max(Map.Entry.<ServerName, Integer>comparingByValue()
          .thenComparing(Map.Entry.comparingByKey())).map(Map.Entry::getKey).orElse(null);
      if (busiest == null) {
        return plan;
      }
      Balancer.Move best = null;
      for (RegionRecord r : catalog.allRegions()) {
        if (!r.replicated() || !RegionRecord.OPEN.equals(r.state()) || held.contains(r.info().getEncodedName())
            || planned.contains(r.info().getEncodedName())
            || !servers.liveAt(primaryOf(r)).map(busiest::equals).orElse(false)) {
          continue;
        }
        for (Member m : r.members()) {
          Optional<ServerName> s = servers.liveAt(m.server());
          if (s.isPresent() && !servers.isDecommissioned(s.get()) && load.get(s.get()) + 1 < load.get(busiest)
              && (best == null || load.get(s.get()) < load.get(best.to()))) {
            best = new Balancer.Move(r.info(), busiest, s.get());
          }
        }
      }
      if (best == null) {
        return plan;
      }
      plan.add(best);
      planned.add(best.region().getEncodedName());
      load.merge(busiest, -1, Integer::sum);
      load.merge(best.to(), 1, Integer::sum);
    }
  }

  /**
   * Open regions with fewer copies on live servers than their table asks for (replicated regions whose
   * member servers are down, or that were placed while too few servers were up).
   */
  public int degradedRegions() {
    int n = 0;
    for (TableDescriptor t : catalog.tables()) {
      int wanted = factor(t);
      for (RegionRecord r : catalog.regions(t.getTableName())) {
        if (RegionRecord.OPEN.equals(r.state()) && r.replicated()
            && r.members().stream().filter(m -> servers.liveAt(m.server()).isPresent()).count() < wanted) {
          n++;
        }
      }
    }
    return n;
  }

  void reportRepairs(java.util.function.Supplier<ReplicaRepair.Plan> lastPlan) {
    repairs = lastPlan;
  }

  /** Members due to be rebuilt on other servers now (re-replication still to do), as of the last plan. */
  public int membersToRebuild() {
    ReplicaRepair.Plan p = repairs.get();
    return p == null ? 0 : p.due();
  }

  /** Members not serving now: on servers that are down (however briefly) or never placed, as of the last plan. */
  public int membersMissing() {
    ReplicaRepair.Plan p = repairs.get();
    return p == null ? 0 : p.missing();
  }

  /** The member its group elected, as reported, or the founding member before any report. */
  public ServerName primaryOf(RegionRecord r) {
    Optional<ServerName> reported = primaries.primary(r.info().getEncodedName());
    return reported.filter(p -> r.memberOn(p).isPresent()).orElse(r.server());
  }

  /**
   * The members of a snapshot clone's region: the founder on {@code founder} (the live server holding the snapshot's
   * files), the others on the least loaded other live servers, {@code factor} in all or as many as there are
   * servers; each with a port no catalog record on its machine holds, nor any of {@code alsoTaken} (members chosen
   * for the clone's other regions, not in the catalog yet).
   */
  List<Member> cloneMembers(RegionInfo target, ServerName founder, int factor, List<Member> alsoTaken)
      throws IOException {
    Map<ServerName, Integer> load = memberLoad();
    List<ServerName> others = load.keySet().stream().filter(s -> !s.getAddress().equals(founder.getAddress()))
        .sorted(java.util.Comparator.<ServerName>comparingInt(s -> load.getOrDefault(s, 0))
            .thenComparing(java.util.Comparator.naturalOrder()))
        .limit(Math.max(0, factor - 1)).toList();
    List<Member> members = new ArrayList<>();
    for (ServerName s : java.util.stream.Stream.concat(java.util.stream.Stream.of(founder), others.stream()).toList()) {
      Set<Integer> taken = portsTakenOn(s.getHostname());
      java.util.stream.Stream.concat(alsoTaken.stream(), members.stream())
          .filter(m -> m.server().getHostname().equals(s.getHostname())).forEach(m -> taken.add(m.port()));
      members.add(new Member(s, servers.control(s).replicationPort(target, taken)));
    }
    return members;
  }

  /** A new member of {@code region} on {@code server}, with a replication port reserved for it there. */
  Member reserveMember(RegionInfo region, ServerName server) throws IOException {
    return new Member(server, servers.control(server).replicationPort(region, portsTakenOn(server.getHostname())));
  }

  private Set<Integer> portsTakenOn(String host) {
    return portsTakenOn(catalog, host);
  }

  /**
   * Replication ports the catalog records on a machine (several region servers may share one), retired
   * split parents' included: their members' logs were cloned into their daughters, whose members would
   * still find the parent's addresses in them.
   */
  static Set<Integer> portsTakenOn(Catalog catalog, String host) {
    Set<Integer> taken = new HashSet<>();
    for (RegionRecord r : catalog.allRegions()) {
      for (Member m : r.members()) {
        if (m.server().getHostname().equals(host)) {
          taken.add(m.port());
        }
      }
    }
    return taken;
  }

  /** Members per placeable server (an unreplicated region counts as one member where it is). */
  private Map<ServerName, Integer> memberLoad() {
    Map<ServerName, Integer> load = new HashMap<>();
    for (ServerName s : servers.placeable()) {
      load.put(s, 0);
    }
    for (RegionRecord r : catalog.allRegions()) {
      if (RegionRecord.SPLIT.equals(r.state())) {
        continue;
      }
      List<ServerName> on = r.replicated() ? r.members().stream().map(Member::server).toList()
          : r.server() == null ? List.of() : List.of(r.server());
      for (ServerName s : on) {
        servers.liveAt(s).filter(load::containsKey).ifPresent(live -> load.merge(live, 1, Integer::sum));
      }
    }
    return load;
  }

  /** Regions each live server is primary of (an unreplicated region's server counts as its primary). */
  private Map<ServerName, Integer> primaryLoad() {
    Map<ServerName, Integer> load = new HashMap<>();
    for (RegionRecord r : catalog.allRegions()) {
      if (RegionRecord.SPLIT.equals(r.state()) || r.server() == null) {
        continue;
      }
      servers.liveAt(r.replicated() ? primaryOf(r) : r.server()).ifPresent(live -> load.merge(live, 1, Integer::sum));
    }
    return load;
  }
}
