package io.basalt.bench.compare.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
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
 * Keeps the replicated target of {@code bin/basalt bench --replication-factor 3} working, without the whole
 * comparison (which takes minutes with a cluster on two cores): the launcher starts ZooKeeper, a master and three
 * region servers, the unmodified HBase client writes and reads through it, every region server holds a copy of
 * the region, and closing the target ends exactly its five processes.
 */
class BasaltClusterSmokeTest {
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aReplicatedClusterStartsServesTheClientAndStops(@TempDir Path temp) throws Exception {
    String logDir = System.getProperty("basalt.bench.logDir");
    Path work = logDir == null ? temp
        : Files.createDirectories(Path.of(logDir)).resolve("cluster-smoke-" + System.currentTimeMillis());
    LaunchedTarget cluster = BasaltCluster.start(new ServerSettings(256, 8, work, false), 3);
    List<ChildJvm> processes = cluster.processes();
    try {
      assertThat(cluster.name()).isEqualTo("basalt-rf3");
      assertThat(processes).hasSize(5).allMatch(ChildJvm::isAlive);
      assertThat(cluster.coldStart()).isPresent();
      TableName name = TableName.valueOf("smoke");
      byte[] family = Bytes.toBytes("f");
      try (Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
        try (Admin admin = conn.getAdmin()) {
          admin.createTable(TableDescriptorBuilder.newBuilder(name)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(family)).build());
        }
        try (Table table = conn.getTable(name)) {
          for (int i = 0; i < 100; i++) {
            table.put(new Put(Bytes.toBytes(String.format("row%03d", i)))
                .addColumn(family, Bytes.toBytes("q"), Bytes.toBytes("value" + i)));
          }
          Result r = table.get(new Get(Bytes.toBytes("row042")));
          assertThat(Bytes.toString(r.getValue(family, Bytes.toBytes("q")))).isEqualTo("value42");
          int rows = 0;
          try (ResultScanner scanner = table.getScanner(new Scan())) {
            for (Result ignored : scanner) {
              rows++;
            }
          }
          assertThat(rows).isEqualTo(100);
        }
      }
      // One member of the table's region on each of the three region servers.
      for (int i = 0; i < 3; i++) {
        Path regions = work.resolve("basalt-rf3/data/regionserver-" + i + "/regions");
        try (Stream<Path> members = Files.list(regions)) {
          assertThat(members.filter(Files::isDirectory).count()).as("members on regionserver-%d", i).isEqualTo(1);
        }
      }
    } finally {
      cluster.close();
    }
    assertThat(processes).noneMatch(ChildJvm::isAlive);
    assertThat(work.resolve("basalt-rf3/logs/regionserver-2-gc.log")).isNotEmptyFile();
  }
}
