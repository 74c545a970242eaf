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

  private final Catalog catalog;
  private final ServerManager servers;
  private final Primaries primaries;
  private final int defaultFactor;

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
    IOException failed = null;
    for (Member m : r.members()) {
      Optional<ServerName> live = servers.liveAt(m.server());
      if (live.isEmpty()) {
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
   * null): JE's master transfer, no data moves. Returns once the new primary is published. A server
   * without a copy of the region is refused for now (moving a copy is not built yet).
   */
  void movePrimary(RegionRecord r, ServerName asked) throws IOException {
    String name = r.info().getRegionNameAsString();
    ServerName primary = servers.liveAt(primaryOf(r)).orElseThrow(() -> new HBaseIOException(name
        + " has no live primary now; try again once its group elected one"));
    ServerName target;
    if (asked == null) {
      Map<ServerName, Integer> load = primaryLoad();
      target = r.members().stream().map(m -> servers.liveAt(m.server())).flatMap(Optional::stream)
          .filter(s -> !s.equals(primary))
          .min(java.util.Comparator.<ServerName>comparingInt(s -> load.getOrDefault(s, 0))
              .thenComparing(java.util.Comparator.naturalOrder()))
          .orElseThrow(() -> new DoNotRetryIOException("no other live member of " + name + " to move its primary to"));
    } else {
      target = servers.liveAt(asked).orElseThrow(() -> new HBaseIOException("region server " + asked
          + " is not online"));
      if (r.memberOn(target).isEmpty()) {
        throw new DoNotRetryIOException("cannot move " + name + " to " + target + ": it keeps its copies on "
            + r.members().stream().map(m -> m.server().getAddress().toString()).toList()
            + ", and this Basalt moves the primary role between them only (moving a copy is not built yet)");
      }
    }
    if (target.getAddress().equals(primary.getAddress())) {
      return;
    }
    LOG.info("moving the primary of {} from {} to {}", name, primary, target);
    servers.control(primary).transferPrimary(r.info(), target);
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (!primaryOf(r).getAddress().equals(target.getAddress())) {
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
          if (s.isPresent() && load.get(s.get()) + 1 < load.get(busiest)
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

  /** The member its group elected, as reported, or the founding member before any report. */
  public ServerName primaryOf(RegionRecord r) {
    Optional<ServerName> reported = primaries.primary(r.info().getEncodedName());
    return reported.filter(p -> r.memberOn(p).isPresent()).orElse(r.server());
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

  /** Members per live server (an unreplicated region counts as one member where it is). */
  private Map<ServerName, Integer> memberLoad() {
    Map<ServerName, Integer> load = new HashMap<>();
    for (ServerName s : servers.live()) {
      load.put(s, 0);
    }
    for (RegionRecord r : catalog.allRegions()) {
      if (RegionRecord.SPLIT.equals(r.state())) {
        continue;
      }
      List<ServerName> on = r.replicated() ? r.members().stream().map(Member::server).toList()
          : r.server() == null ? List.of() : List.of(r.server());
      for (ServerName s : on) {
        servers.liveAt(s).ifPresent(live -> load.merge(live, 1, Integer::sum));
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
