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
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Region merges on a real cluster through the unmodified client: two regions on different servers (the upper one
 * moves to the lower one's server first), then two on one server, under a 95/5 load whose every acknowledged write
 * is read back. Replicated tables merge too: {@link ReplicatedMergeTest}.
 */
@Timeout(300)
class MergeClusterTest {
  @TempDir Path dir;

  private static ServerName serverOf(Connection conn, TableName name, RegionInfo region) throws Exception {
    try (RegionLocator locator = conn.getRegionLocator(name)) {
      return locator.getRegionLocation(region.getStartKey(), true).getServerName();
    }
  }

  @Test
  void regionsMergeUnderLoadAcrossServersAndOnOneLosingNothing() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 2);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("merging");
      byte[][] splits = {Bytes.toBytes("k4"), Bytes.toBytes("k8"), Bytes.toBytes("kc")};
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build(), splits);
      try (Workload load = new Workload(conn, name, 4, 95).start()) {
        load.awaitWrites(500, 60_000);
        List<RegionInfo> regions = admin.getRegions(name);
        int i = 0;
        while (i < regions.size() - 2 && serverOf(conn, name, regions.get(i)).equals(serverOf(conn, name, regions.get(i + 1)))) {
          i++;
        }
        ServerName lowerServer = serverOf(conn, name, regions.get(i));
        admin.mergeRegionsAsync(new byte[][] {regions.get(i).getEncodedNameAsBytes(),
            regions.get(i + 1).getEncodedNameAsBytes()}, false).get(120, TimeUnit.SECONDS);
        List<RegionInfo> after = admin.getRegions(name);
        assertThat(after).hasSize(3);
        RegionInfo merged = after.get(i);
        assertThat(merged.getStartKey()).isEqualTo(regions.get(i).getStartKey());
        assertThat(merged.getEndKey()).isEqualTo(regions.get(i + 1).getEndKey());
        assertThat(serverOf(conn, name, merged)).isEqualTo(lowerServer);
        load.awaitWrites(300, 60_000);

        // The merged region and its neighbour, wherever they are now.
        int j = i == 0 ? 0 : i - 1;
        admin.mergeRegionsAsync(new byte[][] {after.get(j).getEncodedNameAsBytes(),
            after.get(j + 1).getEncodedNameAsBytes()}, false).get(120, TimeUnit.SECONDS);
        assertThat(admin.getRegions(name)).hasSize(2);
        load.awaitWrites(300, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }
}
