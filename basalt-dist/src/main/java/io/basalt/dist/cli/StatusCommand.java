package io.basalt.dist.cli;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.net.Address;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.client.TableDescriptor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code basalt status}: the cluster in the terminal, asked through the HBase client as any tool would. */
@Command(name = "status", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"A summary of a running cluster (or standalone server): masters, region servers, tables.",
        "Finds it through ZooKeeper (hbase.zookeeper.quorum and clientPort, or --zookeeper)."})
final class StatusCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  ConfigOptions config;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]", description = "ZooKeeper connect string.")
  String zookeeper;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30", description = "Give up after this long.")
  int timeoutSeconds;

  @Override
  public Integer call() throws Exception {
    String report = ClusterAdmin.run(config.load(), zookeeper, timeoutSeconds, "read the cluster's status",
        StatusCommand::report);
    spec.commandLine().getOut().print(report);
    spec.commandLine().getOut().flush();
    return 0;
  }

  private static String report(Connection conn, Admin admin) throws Exception {
    StringBuilder out = new StringBuilder();
    ClusterMetrics m = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.CLUSTER_ID,
        ClusterMetrics.Option.MASTER, ClusterMetrics.Option.BACKUP_MASTERS, ClusterMetrics.Option.LIVE_SERVERS,
        ClusterMetrics.Option.DEAD_SERVERS));
    out.append("cluster ").append(m.getClusterId()).append('\n');
    out.append("master  ").append(m.getMasterName()).append(m.getBackupMasterNames().isEmpty() ? ""
        : " (standby: " + m.getBackupMasterNames() + ")").append('\n');
    Map<ServerName, ServerMetrics> live = new TreeMap<>(m.getLiveServerMetrics());
    List<ServerName> dead = m.getDeadServerNames();
    Set<Address> decommissioned = new TreeSet<>();
    admin.listDecommissionedRegionServers().forEach(s -> decommissioned.add(s.getAddress()));
    out.append("region servers: ").append(live.size()).append(" live, ").append(dead.size()).append(" dead")
        .append(decommissioned.isEmpty() ? "" : ", " + decommissioned.size() + " decommissioned").append('\n');
    for (Map.Entry<ServerName, ServerMetrics> e : live.entrySet()) {
      String regions;
      try {
        regions = Integer.toString(admin.getRegions(e.getKey()).size());
      } catch (java.io.IOException notAnswering) {
        regions = "?";
      }
      out.append(String.format("  %-48s regions %5s%s%n", e.getKey(), regions,
          decommissioned.contains(e.getKey().getAddress()) ? "  DECOMMISSIONED" : ""));
    }
    for (ServerName s : dead) {
      out.append(String.format("  %-48s DOWN%n", s));
    }
    List<TableDescriptor> tables = admin.listTableDescriptors();
    out.append("tables: ").append(tables.size()).append('\n');
    Copies copies = new Copies(live.keySet(), decommissioned);
    for (TableDescriptor t : tables) {
      TableName name = t.getTableName();
      boolean enabled = admin.isTableEnabled(name);
      out.append(String.format("  %-40s %-9s regions %5d  copies %d%s%n", name.getNameAsString(),
          enabled ? "ENABLED" : "DISABLED",
          admin.getRegions(name).stream().filter(RegionReplicaUtil::isDefaultReplica).count(),
          t.getRegionReplication(), enabled ? copies.count(conn, name, t.getRegionReplication()) : ""));
    }
    if (copies.missing > 0 || copies.onDecommissioned > 0) {
      out.append("re-replication: ").append(copies.missing).append(" region copies to rebuild")
          .append(copies.onDecommissioned > 0 ? ", " + copies.onDecommissioned + " still on decommissioned servers" : "")
          .append('\n');
    }
    return out.toString();
  }

  /**
   * Copies of regions, as meta lists them (replicas 0..R-1): those missing from live servers (their server
   * is down, or they were never placed), which the master rebuilds elsewhere once their server has been gone
   * for basalt.replication.rereplicate.after, and those still on decommissioned servers.
   */
  private static final class Copies {
    private final Set<ServerName> live;
    private final Set<Address> decommissioned;
    int missing;
    int onDecommissioned;

    Copies(Set<ServerName> live, Set<Address> decommissioned) {
      this.live = live;
      this.decommissioned = decommissioned;
    }

    /** ", N regions DEGRADED" when some regions have fewer copies on live servers than the table asks for. */
    String count(Connection conn, TableName name, int wanted) throws Exception {
      Map<String, Integer> liveCopies = new HashMap<>();
      try (RegionLocator locator = conn.getRegionLocator(name)) {
        for (HRegionLocation l : locator.getAllRegionLocations()) {
          if (l == null) {
            continue;
          }
          String region = RegionReplicaUtil.getRegionInfoForDefaultReplica(l.getRegion()).getEncodedName();
          boolean up = l.getServerName() != null && live.contains(l.getServerName());
          liveCopies.merge(region, up ? 1 : 0, Integer::sum);
          if (l.getServerName() != null && decommissioned.contains(l.getServerName().getAddress())) {
            onDecommissioned++;
          }
        }
      }
      liveCopies.values().forEach(n -> missing += Math.max(0, wanted - n));
      long degraded = liveCopies.values().stream().filter(n -> n < wanted).count();
      return degraded == 0 ? "" : ", " + degraded + " regions DEGRADED";
    }
  }
}
