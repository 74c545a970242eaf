package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moves on a real cluster under a 95/5 read/write load through the unmodified client: {@code Admin.move}
 * to a named server and to any, then a third server joins and {@code Admin.balance} gives it its share.
 * Every acknowledged write is read back and no read ever returns a wrong value.
 */
@Timeout(300)
class MoveTest {
  @TempDir Path dir;

  private static Map<ServerName, Integer> regionsPerServer(Connection conn, TableName name) throws Exception {
    Map<ServerName, Integer> out = new HashMap<>();
    try (RegionLocator locator = conn.getRegionLocator(name)) {
      for (HRegionLocation l : locator.getAllRegionLocations()) {
        out.merge(l.getServerName(), 1, Integer::sum);
      }
    }
    return out;
  }

  @Test
  void movesAndBalancingUnderLoadLoseNothing() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 2);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("moving");
      byte[][] splits = {Bytes.toBytes("k4"), Bytes.toBytes("k8"), Bytes.toBytes("kc")};
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build(), splits);
      try (Workload load = new Workload(conn, name, 4, 95).start()) {
        load.awaitWrites(500, 60_000);
        List<org.apache.hadoop.hbase.client.RegionInfo> regions = admin.getRegions(name);
        ServerName first;
        try (RegionLocator locator = conn.getRegionLocator(name)) {
          first = locator.getRegionLocation(regions.get(0).getStartKey()).getServerName();
        }
        ServerName other = admin.getRegionServers().stream().filter(s -> !s.equals(first)).findFirst().orElseThrow();
        admin.move(regions.get(0).getEncodedNameAsBytes(), other);
        try (RegionLocator locator = conn.getRegionLocator(name)) {
          assertThat(locator.getRegionLocation(regions.get(0).getStartKey(), true).getServerName()).isEqualTo(other);
        }
        admin.move(regions.get(1).getEncodedNameAsBytes()); // anywhere else
        load.awaitWrites(300, 60_000);

        cluster.addRegionServer();
        cluster.awaitRegisteredRegionServers(3);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (admin.getRegionServers().size() < 3) {
          assertThat(System.nanoTime()).isLessThan(deadline);
          Thread.sleep(100);
        }
        assertThat(admin.balance()).isTrue();
        Map<ServerName, Integer> spread = regionsPerServer(conn, name);
        assertThat(spread).hasSize(3);
        assertThat(spread.values()).allMatch(n -> n == 1 || n == 2);
        load.awaitWrites(300, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }
}
