package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Admin.flush of a replicated table reaches every copy (each member's log is forced to disk on its own server);
 * a major compaction runs on the primary and shows in the compaction state until done.
 */
@Timeout(300)
class FlushCompactClusterTest {
  @TempDir Path dir;

  @Test
  void aFlushReachesEveryCopyAndAMajorCompactionFinishes() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("flush_replicated");
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build());
      try (Table t = conn.getTable(name)) {
        for (int i = 0; i < 100; i++) {
          t.put(new Put(Bytes.toBytes("r" + i)).addColumn(Workload.F, Bytes.toBytes("q"), Bytes.toBytes(i)));
        }
      }
      String encoded = admin.getRegions(name).get(0).getEncodedName();
      admin.flush(name);
      for (LocalCluster.Node n : cluster.regionServers()) {
        assertThat(cluster.logOf(n.name())).as("flush on %s", n.name()).contains("flushed " + encoded + ": log synced");
      }
      admin.majorCompact(name);
      long deadline = System.nanoTime() + 60_000_000_000L;
      Thread.sleep(300);
      while (admin.getCompactionState(name) != CompactionState.NONE && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(admin.getCompactionState(name)).isEqualTo(CompactionState.NONE);
      HRegionLocation primary;
      try (RegionLocator locator = conn.getRegionLocator(name)) {
        primary = locator.getRegionLocation(Bytes.toBytes("r0"), true);
      }
      String log = cluster.logOf(cluster.regionServerAt(primary.getServerName()).name());
      assertThat(log).contains("major compaction of " + encoded + ": purged");
    }
  }
}
