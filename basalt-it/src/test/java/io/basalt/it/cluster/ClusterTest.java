package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real cluster (ZooKeeper, two masters, three region servers, each its own process): regions spread over
 * the servers; a region server killed with -9 leaves its regions unavailable (retriable errors, never wrong
 * answers) and serves them again, with every acknowledged write, when it returns; a standby master takes
 * over when the active one is killed.
 */
@Timeout(300)
class ClusterTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%04d", i));
  }

  @Test
  void regionsSpreadSurviveServerCrashAndMasterFailover() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 2, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("spread");
      byte[][] splits = new byte[7][];
      for (int i = 0; i < 7; i++) {
        splits[i] = row((i + 1) * 125);
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build(), splits);

      Set<ServerName> hosts = new HashSet<>();
      try (RegionLocator locator = conn.getRegionLocator(name)) {
        List<HRegionLocation> locations = locator.getAllRegionLocations();
        assertThat(locations).hasSize(8);
        locations.forEach(l -> hosts.add(l.getServerName()));
      }
      assertThat(hosts).hasSize(3);
      assertThat(admin.getClusterMetrics().getLiveServerMetrics()).hasSize(3);

      try (Table t = conn.getTable(name)) {
        for (int i = 0; i < 1000; i++) {
          t.put(new Put(row(i)).addColumn(F, Q, Bytes.toBytes("v" + i)));
        }
      }

      // kill -9 one region server: its rows fail (retriably), the others still answer.
      LocalCluster.Node victim = cluster.regionServers().get(0);
      byte[] victimRow = null;
      byte[] otherRow = null;
      try (RegionLocator locator = conn.getRegionLocator(name)) {
        for (int i = 0; i < 1000 && (victimRow == null || otherRow == null); i++) {
          int port = locator.getRegionLocation(row(i)).getPort();
          if (port == victim.port()) {
            victimRow = row(i);
          } else {
            otherRow = row(i);
          }
        }
      }
      assertThat(victimRow).isNotNull();
      cluster.kill(victim);
      Configuration impatient = new Configuration(cluster.clientConfiguration());
      impatient.setInt("hbase.client.retries.number", 2);
      impatient.setInt("hbase.client.operation.timeout", 3_000);
      try (Connection quick = ConnectionFactory.createConnection(impatient); Table t = quick.getTable(name)) {
        assertThat(Bytes.toString(t.get(new Get(otherRow)).getValue(F, Q))).startsWith("v");
        byte[] unavailable = victimRow;
        assertThatThrownBy(() -> t.get(new Get(unavailable))).isInstanceOf(java.io.IOException.class)
            .isNotInstanceOf(org.apache.hadoop.hbase.DoNotRetryIOException.class);
      }

      // It comes back on its port with its data: everything acknowledged is there.
      cluster.start(victim);
      try (Table t = conn.getTable(name)) {
        for (int i = 0; i < 1000; i++) {
          Result r = t.get(new Get(row(i)));
          assertThat(Bytes.toString(r.getValue(F, Q))).as("row %d", i).isEqualTo("v" + i);
        }
      }

      // The active master dies; the standby takes over and DDL works again.
      LocalCluster.Node active = cluster.masters().get(0);
      cluster.kill(active);
      TableName second = TableName.valueOf("after_failover");
      admin.createTable(TableDescriptorBuilder.newBuilder(second).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
      try (Table t = conn.getTable(second)) {
        t.put(new Put(row(1)).addColumn(F, Q, Bytes.toBytes("x")));
        assertThat(Bytes.toString(t.get(new Get(row(1))).getValue(F, Q))).isEqualTo("x");
      }
      try (Table t = conn.getTable(name)) {
        assertThat(Bytes.toString(t.get(new Get(row(999))).getValue(F, Q))).isEqualTo("v999");
      }
    }
  }

  /**
   * A cluster told other znodes (zookeeper.znode.parent, basalt.zookeeper.root, as from basalt-site.xml through the
   * launchers) keeps to them, so it can share a ZooKeeper ensemble with an HBase under /hbase; a client configured
   * with the same parent finds it. Its region server refuses requests over the hbase.ipc.max.request.size it was
   * given and serves the next.
   */
  @Test
  void aClusterKeepsToTheZnodesAndRpcSettingsItIsGiven() throws Exception {
    List<String> znodes =
        List.of("--zookeeper.znode.parent", "/hbase-other", "--basalt.zookeeper.root", "/basalt-other");
    // HBase's RPC settings, passed by the launchers as they are (basalt regionserver and master do so from the config)
    List<String> regionServerArgs = new java.util.ArrayList<>(znodes);
    regionServerArgs.addAll(
        List.of("--hbase.regionserver.handler.count", "7", "--hbase.ipc.max.request.size", "65536"));
    List<String> masterArgs = new java.util.ArrayList<>(znodes);
    masterArgs.addAll(List.of("--replication-factor", "1", "--hbase.master.handler.count", "5"));
    try (LocalCluster cluster = new LocalCluster(dir, 1, 1, regionServerArgs, masterArgs);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("elsewhere");
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
      try (Table t = conn.getTable(name)) {
        t.put(new Put(row(1)).addColumn(F, Q, Bytes.toBytes("x")));
        assertThat(Bytes.toString(t.get(new Get(row(1))).getValue(F, Q))).isEqualTo("x");
        assertThatThrownBy(() -> t.put(new Put(row(2)).addColumn(F, Q, new byte[100_000])))
            .as("a request over the region server's hbase.ipc.max.request.size")
            .hasStackTraceContaining("RequestTooBigException").hasStackTraceContaining("max allowed 65536");
        t.put(new Put(row(3)).addColumn(F, Q, new byte[30_000]));
        assertThat(t.get(new Get(row(3))).getValue(F, Q)).hasSize(30_000);
        assertThat(t.exists(new Get(row(2)))).isFalse();
      }
      Configuration conf = cluster.clientConfiguration();
      String quorum = conf.get("hbase.zookeeper.quorum") + ":" + conf.get("hbase.zookeeper.property.clientPort");
      try (org.apache.zookeeper.ZooKeeper zk = new org.apache.zookeeper.ZooKeeper(quorum, 10_000, e -> { })) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (zk.getState() != org.apache.zookeeper.ZooKeeper.States.CONNECTED) {
          assertThat(System.nanoTime()).as("connected to ZooKeeper").isLessThan(deadline);
          Thread.sleep(50);
        }
        assertThat(zk.exists("/hbase-other/master", false)).isNotNull();
        assertThat(zk.getChildren("/basalt-other/servers", false)).hasSize(1);
        assertThat(zk.exists("/hbase", false)).as("nothing under HBase's default parent").isNull();
        assertThat(zk.exists("/basalt", false)).as("nothing under Basalt's default root").isNull();
      }
    }
  }
}
