package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Figures for docs/snapshots.md, not run by CI: clone and restore time of a one-region replicated table (3 servers,
 * 3 copies) by region size, {@code -Dbasalt.it.snapshot.figures=true}. Each run checks that the clone and the restored
 * table hold every row.
 */
@EnabledIfSystemProperty(named = "basalt.it.snapshot.figures", matches = "true")
@Timeout(900)
class ReplicatedCloneFiguresTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int VALUE_BYTES = 1000;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(ints = {10, 100})
  void cloneAndRestoreTimeByRegionSize(int megabytes) throws Exception {
    int rows = megabytes * 1000;
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName t = TableName.valueOf("figures" + megabytes);
      admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
          .build());
      byte[] value = new byte[VALUE_BYTES];
      Arrays.fill(value, (byte) 'x');
      try (BufferedMutator m = conn.getBufferedMutator(t)) {
        for (int i = 0; i < rows; i++) {
          m.mutate(new Put(Bytes.toBytes(String.format("row-%08d", i))).addColumn(F, Q, value)
              .setDurability(Durability.SKIP_WAL));
        }
      }
      long start = System.nanoTime();
      admin.snapshot("figures" + megabytes, t);
      long snapshot = (System.nanoTime() - start) / 1_000_000;
      TableName copy = TableName.valueOf("figures" + megabytes + "_copy");
      start = System.nanoTime();
      admin.cloneSnapshot("figures" + megabytes, copy);
      long clone = (System.nanoTime() - start) / 1_000_000;
      assertThat(count(conn, copy)).isEqualTo(rows);
      admin.disableTable(t);
      start = System.nanoTime();
      admin.restoreSnapshot("figures" + megabytes);
      long restore = (System.nanoTime() - start) / 1_000_000;
      admin.enableTable(t);
      assertThat(count(conn, t)).isEqualTo(rows);
      long regions = admin.getRegions(copy).stream().filter(r -> r.getReplicaId() == 0).count();
      System.out.printf("replicated snapshot figures: %d MB in %d region(s), RF=3: snapshot %d ms, clone %d ms,"
          + " restore %d ms%n", megabytes, regions, snapshot, clone, restore);
      List<String> phases = cluster.masters().stream().map(cluster::logTail).toList();
      phases.forEach(p -> Arrays.stream(p.split("\n")).filter(l -> l.contains("CLONED") || l.contains("RESTORED"))
          .forEach(l -> System.out.println("replicated snapshot figures: " + l)));
    }
  }

  private static int count(Connection conn, TableName t) throws Exception {
    int n = 0;
    try (Table table = conn.getTable(t); ResultScanner s = table.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()))) {
      for (Result r : s) {
        n++;
      }
    }
    return n;
  }
}
