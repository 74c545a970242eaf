package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splits on a real cluster under write load, through the unmodified client: {@code Admin.split} at a row
 * and at the middle, automatic splits past a (tiny) cell threshold, and meta showing the retired parent with
 * its daughters as HBase does. Every acknowledged write is read back.
 */
@Timeout(300)
class SplitTest {
  @TempDir Path dir;

  private static void create(Admin admin, TableName name) throws Exception {
    admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build());
  }

  private static void awaitRegions(Admin admin, TableName name, int atLeast, long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (admin.getRegions(name).size() < atLeast) {
      assertThat(System.nanoTime()).as("%s has %d regions, waiting for %d", name, admin.getRegions(name).size(), atLeast)
          .isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  @Test
  void adminSplitsUnderWriteLoadLoseNothing() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 2);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("split_admin");
      create(admin, name);
      try (Workload load = new Workload(conn, name, 4, 0).start()) {
        load.awaitWrites(3000, 60_000);
        admin.split(name, Bytes.toBytes("k8"));
        awaitRegions(admin, name, 2, 60);
        load.awaitWrites(2000, 60_000);
        admin.split(name); // each region at its middle row
        awaitRegions(admin, name, 4, 60);
        load.awaitWrites(1000, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
      List<RegionInfo> regions = admin.getRegions(name);
      assertThat(regions).hasSize(4);
      assertThat(regions.stream().filter(r -> Bytes.equals(r.getStartKey(), Bytes.toBytes("k8")))).hasSize(1);

      // meta: the first parent is retired (offline, split) and names its daughters.
      try (Table meta = conn.getTable(TableName.META_TABLE_NAME);
           ResultScanner s = meta.getScanner(new Scan().addFamily(HConstants.CATALOG_FAMILY))) {
        int parents = 0;
        for (Result r : s) {
          RegionInfo info = RegionInfo.parseFromOrNull(r.getValue(HConstants.CATALOG_FAMILY, HConstants.REGIONINFO_QUALIFIER));
          if (info != null && info.getTable().equals(name) && info.isSplitParent()) {
            parents++;
            assertThat(r.getValue(HConstants.CATALOG_FAMILY, HConstants.SPLITA_QUALIFIER)).isNotNull();
            assertThat(r.getValue(HConstants.CATALOG_FAMILY, HConstants.SPLITB_QUALIFIER)).isNotNull();
          }
        }
        assertThat(parents).isEqualTo(3);
      }
    }
  }

  @Test
  void regionsSplitThemselvesPastTheThreshold() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 1, List.of("--split-cells", "3000", "--split-check-ms", "500"));
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("split_auto");
      create(admin, name);
      try (Workload load = new Workload(conn, name, 4, 5).start()) {
        awaitRegions(admin, name, 3, 120);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }
}
