package io.basalt.dist.cli;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ZooKeeperKeys;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
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
    BasaltConfig c = config.load();
    String quorum = zookeeper != null ? zookeeper : ZooKeeperKeys.connectString(c);
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.set("zookeeper.znode.parent", c.get(ZooKeeperKeys.ZNODE_PARENT));
    conf.setInt("hbase.client.retries.number", 2);
    conf.setInt("zookeeper.recovery.retry", 1);
    conf.setInt("hbase.rpc.timeout", 10_000);
    conf.setInt("hbase.client.operation.timeout", timeoutSeconds * 1000);
    ExecutorService single = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "basalt-status");
      t.setDaemon(true);
      return t;
    });
    try {
      Future<String> report = single.submit(() -> report(conf));
      spec.commandLine().getOut().print(report.get(timeoutSeconds, TimeUnit.SECONDS));
      spec.commandLine().getOut().flush();
      return 0;
    } catch (TimeoutException e) {
      throw new CliFailure("no answer from the cluster through ZooKeeper " + quorum + " within " + timeoutSeconds + " s");
    } catch (ExecutionException e) {
      throw new CliFailure("cannot read the cluster's status through ZooKeeper " + quorum + ": " + e.getCause());
    } finally {
      single.shutdownNow();
    }
  }

  private static String report(Configuration conf) throws Exception {
    StringBuilder out = new StringBuilder();
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      ClusterMetrics m = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.CLUSTER_ID,
          ClusterMetrics.Option.MASTER, ClusterMetrics.Option.BACKUP_MASTERS, ClusterMetrics.Option.LIVE_SERVERS,
          ClusterMetrics.Option.DEAD_SERVERS));
      out.append("cluster ").append(m.getClusterId()).append('\n');
      out.append("master  ").append(m.getMasterName()).append(m.getBackupMasterNames().isEmpty() ? ""
          : " (standby: " + m.getBackupMasterNames() + ")").append('\n');
      Map<ServerName, ServerMetrics> live = new TreeMap<>(m.getLiveServerMetrics());
      List<ServerName> dead = m.getDeadServerNames();
      out.append("region servers: ").append(live.size()).append(" live, ").append(dead.size()).append(" dead\n");
      for (Map.Entry<ServerName, ServerMetrics> e : live.entrySet()) {
        String regions;
        try {
          regions = Integer.toString(admin.getRegions(e.getKey()).size());
        } catch (java.io.IOException notAnswering) {
          regions = "?";
        }
        out.append(String.format("  %-48s regions %5s%n", e.getKey(), regions));
      }
      for (ServerName s : dead) {
        out.append(String.format("  %-48s DOWN%n", s));
      }
      List<TableDescriptor> tables = admin.listTableDescriptors();
      out.append("tables: ").append(tables.size()).append('\n');
      for (TableDescriptor t : tables) {
        TableName name = t.getTableName();
        boolean enabled = admin.isTableEnabled(name);
        out.append(String.format("  %-40s %-9s regions %5d  copies %d%s%n", name.getNameAsString(),
            enabled ? "ENABLED" : "DISABLED",
            admin.getRegions(name).stream().filter(RegionReplicaUtil::isDefaultReplica).count(),
            t.getRegionReplication(), enabled ? degraded(conn, name, t.getRegionReplication(), live.keySet()) : ""));
      }
    }
    return out.toString();
  }

  /** ", N regions degraded" when some regions have fewer copies on live servers than the table asks for. */
  private static String degraded(Connection conn, TableName name, int wanted, Set<ServerName> live) throws Exception {
    Map<String, Integer> liveCopies = new HashMap<>();
    try (RegionLocator locator = conn.getRegionLocator(name)) {
      for (HRegionLocation l : locator.getAllRegionLocations()) {
        if (l == null) {
          continue;
        }
        String region = RegionReplicaUtil.getRegionInfoForDefaultReplica(l.getRegion()).getEncodedName();
        liveCopies.merge(region, l.getServerName() != null && live.contains(l.getServerName()) ? 1 : 0, Integer::sum);
      }
    }
    long degraded = liveCopies.values().stream().filter(n -> n < wanted).count();
    return degraded == 0 ? "" : ", " + degraded + " regions DEGRADED";
  }

}
