package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase's decommission API on a real cluster of unreplicated regions under load, through the unmodified
 * client: a server decommissioned with offload has its regions moved away and gets no new ones (new
 * tables, the balancer), the set survives a master failover, and recommissioning moves back the regions
 * named and lets the balancer fill it again. Nothing acknowledged is lost. (The replicated case, members
 * rebuilt elsewhere, is in {@link RereplicationTest}.)
 */
@Timeout(400)
class DecommissionTest {
  @TempDir Path dir;

  private static byte[][] splits(int regions) {
    byte[][] out = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      out[i - 1] = Bytes.toBytes(String.format("k%x", i));
    }
    return out;
  }

  private static void createTable(Admin admin, TableName name, int regions) throws Exception {
    admin.createTable(TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build(), splits(regions));
  }

  private static void awaitNoRegions(Admin admin, ServerName s, long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!admin.getRegions(s).isEmpty()) {
      assertThat(System.nanoTime()).as("%s still hosts %s", s, admin.getRegions(s)).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private static ServerName liveAt(Admin admin, ServerName s) throws Exception {
    return admin.getRegionServers().stream().filter(x -> x.getAddress().equals(s.getAddress())).findFirst()
        .orElseThrow();
  }

  @Test
  void aDecommissionedServerIsOffloadedGetsNothingNewAcrossAFailoverAndComesBack() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 2, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("decommissioned");
      createTable(admin, name, 9);
      try (Workload load = new Workload(conn, name, 3, 80).start()) {
        load.awaitWrites(500, 60_000);
        ServerName s = admin.getRegionServers().stream().filter(x -> {
          try {
            return !admin.getRegions(x).isEmpty();
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }).findFirst().orElseThrow();
        int hosted = admin.getRegions(s).size();
        assertThat(hosted).isPositive();

        admin.decommissionRegionServers(List.of(s), true);
        assertThat(admin.listDecommissionedRegionServers()).extracting(ServerName::getAddress).containsExactly(s.getAddress());
        awaitNoRegions(admin, s, 120);
        load.awaitWrites(300, 60_000);

        TableName later = TableName.valueOf("created_after");
        createTable(admin, later, 6);
        assertThat(admin.getRegions(s)).as("no new region on a decommissioned server").isEmpty();
        admin.balance();
        assertThat(admin.getRegions(s)).as("nor from the balancer").isEmpty();

        // The set is in ZooKeeper: the standby that takes over knows it.
        cluster.kill(cluster.masters().get(0));
        cluster.awaitActiveMaster();
        assertThat(admin.listDecommissionedRegionServers()).extracting(ServerName::getAddress).containsExactly(s.getAddress());
        TableName afterFailover = TableName.valueOf("created_after_failover");
        createTable(admin, afterFailover, 6);
        assertThat(admin.getRegions(s)).isEmpty();

        RegionInfo back = admin.getRegions(name).get(0);
        admin.recommissionRegionServer(s, List.of(back.getEncodedNameAsBytes()));
        assertThat(admin.listDecommissionedRegionServers()).isEmpty();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (admin.getRegions(liveAt(admin, s)).stream().noneMatch(r -> r.getEncodedName().equals(back.getEncodedName()))) {
          assertThat(System.nanoTime()).as("the region named is moved back").isLessThan(deadline);
          Thread.sleep(200);
        }
        assertThat(admin.balance()).isTrue();
        assertThat(admin.getRegions(liveAt(admin, s)).size()).as("the balancer fills it again").isGreaterThan(1);

        load.awaitWrites(300, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }

  @Test
  void withoutOffloadItKeepsItsRegionsAndAnUnknownServerIsRefused() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 2);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("kept");
      createTable(admin, name, 4);
      ServerName s = admin.getRegionServers().iterator().next();
      int hosted = admin.getRegions(s).size();
      admin.decommissionRegionServers(List.of(s), false);
      Thread.sleep(5_000); // several re-replication rounds
      assertThat(admin.getRegions(s)).hasSize(hosted);
      createTable(admin, TableName.valueOf("kept_new"), 4);
      assertThat(admin.getRegions(s)).hasSize(hosted);

      org.assertj.core.api.Assertions.assertThatThrownBy(() -> admin.decommissionRegionServers(
          List.of(ServerName.valueOf("127.0.0.1", 1, 1)), true))
          .isInstanceOf(org.apache.hadoop.hbase.DoNotRetryIOException.class)
          .hasMessageContaining("no region server is registered at 127.0.0.1:1");
      admin.recommissionRegionServer(s, List.of());
      assertThat(admin.listDecommissionedRegionServers()).isEmpty();
    }
  }
}
