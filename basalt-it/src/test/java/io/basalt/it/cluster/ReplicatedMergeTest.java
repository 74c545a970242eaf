package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merge of two replicated regions (3 region servers, 3 copies) on real processes through the unmodified client:
 * writers run across the merge, the merged region has 3 members on 3 servers, every acknowledged write reads back,
 * and after its primary's server is killed every acknowledged write reads back from the new primary.
 */
@Timeout(300)
class ReplicatedMergeTest {
  @TempDir Path dir;

  private static List<RegionInfo> primaries(Admin admin, TableName name) throws java.io.IOException {
    return admin.getRegions(name).stream().filter(r -> r.getReplicaId() == 0).toList();
  }

  private static List<ServerName> copies(Connection conn, TableName name) throws java.io.IOException {
    try (RegionLocator locator = conn.getRegionLocator(name)) {
      return locator.getRegionLocations(Bytes.toBytes("k0"), true).stream().map(HRegionLocation::getServerName)
          .toList();
    }
  }

  @Test
  void twoReplicatedRegionsMergeUnderLoadIntoThreeMembersAndSurviveTheirPrimarysDeath() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      cluster.awaitRegisteredRegionServers(3);
      TableName name = TableName.valueOf("replicated_merge");
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build(), new byte[][] {Bytes.toBytes("k8")});
      List<RegionInfo> before = primaries(admin, name);
      assertThat(before).hasSize(2);
      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(2_000, 90_000);
        load.resetWriteGaps();
        long start = System.nanoTime();
        admin.mergeRegionsAsync(new byte[][] {before.get(0).getEncodedNameAsBytes(),
            before.get(1).getEncodedNameAsBytes()}, false).get(120, TimeUnit.SECONDS);
        long mergeMillis = (System.nanoTime() - start) / 1_000_000;
        load.awaitWrites(1_000, 90_000);
        System.out.println("replicated merge: mergeRegionsAsync finished after " + mergeMillis + " ms; longest writer"
            + " wait across it " + load.longestWriteGapMillis() + " ms; " + load.acknowledgedWrites()
            + " writes acknowledged so far");

        List<RegionInfo> after = primaries(admin, name);
        assertThat(after).as("one merged region").hasSize(1);
        assertThat(after.get(0).getStartKey()).isEmpty();
        assertThat(after.get(0).getEndKey()).isEmpty();
        assertThat(after.get(0).getRegionId()).isGreaterThan(Math.max(before.get(0).getRegionId(),
            before.get(1).getRegionId()));
        assertThat(admin.getRegions(name)).as("1 region x 3 replicas").hasSize(3);
        List<ServerName> copies = copies(conn, name);
        Set<ServerName> distinct = new HashSet<>(copies);
        assertThat(copies).as("replicas 0..2 of the merged region").hasSize(3);
        assertThat(distinct).as("on 3 distinct servers").hasSize(3);
        assertThat(load.verify()).as("acknowledged writes lost by the merge (of %s)", load.acknowledgedWrites())
            .isEmpty();

        LocalCluster.Node primary = cluster.regionServerAt(copies.get(0));
        System.out.println("replicated merge: SIGKILL of " + primary.name() + ", the merged region's primary");
        cluster.kill(primary);
        long acked = load.acknowledgedWrites();
        load.awaitWrites(500, 90_000);
        assertThat(load.acknowledgedWrites()).as("writes go on after the primary's death").isGreaterThan(acked + 300);
        load.close();
        assertThat(copies(conn, name).get(0)).as("a new primary is published").isNotEqualTo(copies.get(0));
        assertThat(load.verify()).as("acknowledged writes lost (of %s)", load.acknowledgedWrites()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }

  /**
   * The cost of a replicated merge against region size, run only with {@code -Dbasalt.gmerge.mb=N}: two adjacent
   * regions of N MB and 0.9 N MB of 8 KB values (the smaller one is copied), two writers on the larger one across
   * the merge; prints the merge's duration, the writers' longest wait and the master's phase times.
   */
  @Test
  @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "basalt.gmerge.mb", matches = "\\d+")
  void mergeCostAgainstRegionSize() throws Exception {
    int mb = Integer.getInteger("basalt.gmerge.mb");
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      cluster.awaitRegisteredRegionServers(3);
      TableName name = TableName.valueOf("replicated_merge_cost");
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build(), new byte[][] {Bytes.toBytes("m")});
      byte[] value = new byte[8192];
      new java.util.Random(1).nextBytes(value);
      long loadStart = System.nanoTime();
      try (org.apache.hadoop.hbase.client.BufferedMutator m = conn.getBufferedMutator(name)) {
        for (int i = 0; i < mb * 128; i++) {
          m.mutate(new org.apache.hadoop.hbase.client.Put(Bytes.toBytes(String.format("a%08d", i)))
              .addColumn(Workload.F, Workload.Q, value));
        }
        for (int i = 0; i < mb * 128 * 9 / 10; i++) {
          m.mutate(new org.apache.hadoop.hbase.client.Put(Bytes.toBytes(String.format("n%08d", i)))
              .addColumn(Workload.F, Workload.Q, value));
        }
      }
      System.out.println("replicated merge cost: loaded " + mb + " + " + (mb * 9 / 10) + " MB in "
          + (System.nanoTime() - loadStart) / 1_000_000 + " ms");
      List<RegionInfo> before = primaries(admin, name);
      try (Workload load = new Workload(conn, name, 2, 0).start()) {
        load.awaitWrites(500, 90_000);
        load.resetWriteGaps();
        long start = System.nanoTime();
        admin.mergeRegionsAsync(new byte[][] {before.get(0).getEncodedNameAsBytes(),
            before.get(1).getEncodedNameAsBytes()}, false).get(600, TimeUnit.SECONDS);
        long millis = (System.nanoTime() - start) / 1_000_000;
        load.awaitWrites(300, 90_000);
        System.out.println("replicated merge cost: " + mb + " MB regions merged in " + millis + " ms; longest writer"
            + " wait " + load.longestWriteGapMillis() + " ms");
        cluster.logOf(cluster.masters().get(0).name()).lines().filter(l -> l.contains("gmerge-")
            && l.contains("MERGED")).forEach(l -> System.out.println("replicated merge cost: master: " + l));
        for (LocalCluster.Node rs : cluster.regionServers()) {
          cluster.logOf(rs.name()).lines().filter(l -> l.contains("copied") && l.contains("into it"))
              .forEach(l -> System.out.println("replicated merge cost: founder: " + l));
        }
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(primaries(admin, name)).hasSize(1);
      }
    }
  }
}
