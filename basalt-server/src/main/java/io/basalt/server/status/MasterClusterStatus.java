package io.basalt.server.status;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.master.Master;
import io.basalt.server.master.OperationHistory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableState;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The cluster as the active master's catalog, server list and operation history describe it, with region
 * sizes and rates from a {@link RegionLoadSource}. {@code master} is null on a standby.
 */
public final class MasterClusterStatus implements ClusterStatus {
  private final Supplier<Master> master;
  private final RegionLoadSource loads;
  private final Function<ServerName, String> statusUrls;

  /** {@code statusUrls} gives a region server's status page (null if unknown). */
  public MasterClusterStatus(Supplier<Master> master, RegionLoadSource loads, Function<ServerName, String> statusUrls) {
    this.master = master;
    this.loads = loads;
    this.statusUrls = statusUrls;
  }

  @Override
  public boolean active() {
    return master.get() != null;
  }

  @Override
  public String clusterId() {
    Master m = master.get();
    return m == null ? "" : m.catalog().clusterId();
  }

  @Override
  public String activeMaster() {
    Master m = master.get();
    return m == null ? "" : m.name().getServerName();
  }

  @Override
  public List<Server> servers() {
    Master m = master.get();
    if (m == null) {
      return List.of();
    }
    Map<String, RegionLoad> load = loads.regionLoads();
    Map<ServerName, Integer> regions = new TreeMap<>(m.load());
    Map<ServerName, Double> rates = new HashMap<>();
    for (RegionRecord r : m.catalog().allRegions()) {
      if (r.server() == null || RegionRecord.SPLIT.equals(r.state())) {
        continue;
      }
      // Servers that are down but still hold regions are listed too (their regions are unavailable).
      regions.putIfAbsent(r.server(), 0);
      if (!m.servers().isLive(r.server())) {
        regions.merge(r.server(), 1, Integer::sum);
      }
      RegionLoad l = load.get(r.info().getEncodedName());
      if (l != null) {
        rates.merge(r.server(), l.readsPerSecond() + l.writesPerSecond(), Double::sum);
      }
    }
    List<Server> out = new ArrayList<>();
    for (Map.Entry<ServerName, Integer> e : regions.entrySet()) {
      ServerName s = e.getKey();
      out.add(new Server(s.getServerName(), m.servers().isLive(s), e.getValue(),
          rates.getOrDefault(s, load.isEmpty() ? Double.NaN : 0.0), statusUrls.apply(s)));
    }
    return out;
  }

  @Override
  public List<Table> tables() {
    Master m = master.get();
    if (m == null) {
      return List.of();
    }
    Map<String, RegionLoad> load = loads.regionLoads();
    List<Table> out = new ArrayList<>();
    for (TableDescriptor t : m.catalog().tables()) {
      TableName name = t.getTableName();
      int regions = 0;
      long bytes = 0;
      for (RegionRecord r : m.catalog().regions(name)) {
        if (RegionRecord.SPLIT.equals(r.state())) {
          continue;
        }
        regions++;
        RegionLoad l = load.get(r.info().getEncodedName());
        bytes = l == null || bytes < 0 ? -1 : bytes + l.logBytes();
      }
      String state = m.catalog().state(name).map(TableState.State::name).orElse("?");
      out.add(new Table(name.getNameAsString(), state, regions, bytes));
    }
    return out;
  }

  @Override
  public Optional<List<Region>> regions(String table) {
    Master m = master.get();
    if (m == null) {
      return Optional.empty();
    }
    TableName name;
    try {
      name = TableName.valueOf(table);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (m.catalog().table(name).isEmpty()) {
      return Optional.empty();
    }
    Map<String, RegionLoad> load = loads.regionLoads();
    int wanted = m.replicas().factor(m.catalog().table(name).get());
    List<Region> out = new ArrayList<>();
    for (RegionRecord r : m.catalog().regions(name)) {
      RegionInfo i = r.info();
      List<String> daughters = new ArrayList<>();
      for (RegionInfo d : new RegionInfo[] {r.splitA(), r.splitB()}) {
        if (d != null) {
          daughters.add(d.getEncodedName());
        }
      }
      RegionLoad l = load.get(i.getEncodedName());
      ServerName primary = r.replicated() ? m.replicas().primaryOf(r) : r.server();
      out.add(new Region(i.getEncodedName(), i.getRegionNameAsString(), Bytes.toStringBinary(i.getStartKey()),
          Bytes.toStringBinary(i.getEndKey()), primary == null ? "" : primary.getServerName(), r.state(),
          daughters, copies(m, r, primary), wanted, l == null ? -1 : l.logBytes(), l == null ? -1 : l.cells(),
          l == null ? Double.NaN : l.readsPerSecond(), l == null ? Double.NaN : l.writesPerSecond()));
    }
    return Optional.of(out);
  }

  private static List<Copy> copies(Master m, RegionRecord r, ServerName primary) {
    if (!r.replicated()) {
      return r.server() == null ? List.of() : List.of(new Copy(r.server().getServerName(), "only copy",
          m.servers().liveAt(r.server()).isPresent()));
    }
    List<Copy> out = new ArrayList<>();
    for (Member member : r.members()) {
      Optional<ServerName> live = m.servers().liveAt(member.server());
      out.add(new Copy(live.orElse(member.server()).getServerName(), member.isOn(primary) ? "primary" : "secondary",
          live.isPresent()));
    }
    return out;
  }

  @Override
  public List<Operation> recentOperations() {
    Master m = master.get();
    if (m == null) {
      return List.of();
    }
    List<Operation> out = new ArrayList<>();
    for (OperationHistory.Operation op : m.history().recent()) {
      out.add(new Operation(op.kind(), op.region(), op.from(), op.to(), op.startedAtMillis(), op.phasesMillis(),
          op.totalMillis(), op.unavailableMillis(), op.bytes(), op.outcome()));
    }
    return out;
  }

  @Override
  public Rebuilding rebuilding() {
    Master m = master.get();
    return m == null ? new Rebuilding(0, 0) : new Rebuilding(m.replicas().membersToRebuild(), m.replicas().membersMissing());
  }

  @Override
  public List<String> decommissioned() {
    Master m = master.get();
    return m == null ? List.of() : m.servers().decommissioned().keySet().stream().map(Object::toString).sorted().toList();
  }
}
