package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads and writes with conditions and time bounds through the real client: checkAndMutate with filters, time
 * ranges and read-modify-write actions, and per-family time ranges on reads.
 */
@Timeout(120)
class ConditionalMutationTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] Q = Bytes.toBytes("q");
  @TempDir static Path dir;
  static StandaloneServer server;
  static Connection conn;

  @BeforeAll
  static void start() throws Exception {
    server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 3);
    conn = ConnectionFactory.createConnection(conf);
    conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("cond"))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(5).build()).build());
  }

  @AfterAll
  static void stop() throws IOException {
    if (conn != null) {
      conn.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void filterConditionHoldsWhenTheFilteredRowHasCells() throws IOException {
    try (Table table = conn.getTable(TableName.valueOf("cond"))) {
      byte[] row = Bytes.toBytes("f");
      table.put(new Put(row).addColumn(CF, Q, Bytes.toBytes("5")));
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row)
          .ifMatches(new SingleColumnValueFilter(CF, Q, CompareOperator.EQUAL, Bytes.toBytes("5")))
          .build(new Put(row).addColumn(CF, Bytes.toBytes("yes"), Bytes.toBytes("1")))).isSuccess()).isTrue();
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row)
          .ifMatches(new SingleColumnValueFilter(CF, Q, CompareOperator.EQUAL, Bytes.toBytes("6")))
          .build(new Put(row).addColumn(CF, Bytes.toBytes("no"), Bytes.toBytes("1")))).isSuccess()).isFalse();
      assertThat(table.get(new Get(row)).getValue(CF, Bytes.toBytes("yes"))).isNotNull();
      assertThat(table.get(new Get(row)).getValue(CF, Bytes.toBytes("no"))).isNull();
    }
  }

  @Test
  void incrementsAndAppendsInsideAtomicUpdates() throws IOException {
    try (Table table = conn.getTable(TableName.valueOf("cond"))) {
      byte[] row = Bytes.toBytes("rmw");
      Result r = table.mutateRow(org.apache.hadoop.hbase.client.RowMutations.of(java.util.List.of(
          new Put(row).addColumn(CF, Bytes.toBytes("p"), Bytes.toBytes("x")),
          new org.apache.hadoop.hbase.client.Increment(row).addColumn(CF, Bytes.toBytes("n"), 7))));
      assertThat(Bytes.toLong(r.getValue(CF, Bytes.toBytes("n")))).isEqualTo(7);
      var cam = table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Bytes.toBytes("p"), Bytes.toBytes("x"))
          .build(new org.apache.hadoop.hbase.client.Increment(row).addColumn(CF, Bytes.toBytes("n"), 3)));
      assertThat(cam.isSuccess()).isTrue();
      assertThat(Bytes.toLong(cam.getResult().getValue(CF, Bytes.toBytes("n")))).isEqualTo(10);
      var appended = table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Bytes.toBytes("p"), Bytes.toBytes("x"))
          .build(new org.apache.hadoop.hbase.client.Append(row).addColumn(CF, Bytes.toBytes("p"), Bytes.toBytes("y"))));
      assertThat(Bytes.toString(appended.getResult().getValue(CF, Bytes.toBytes("p")))).isEqualTo("xy");
      var refused = table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Bytes.toBytes("p"), Bytes.toBytes("x"))
          .build(new org.apache.hadoop.hbase.client.Increment(row).addColumn(CF, Bytes.toBytes("n"), 100)));
      assertThat(refused.isSuccess()).isFalse();
      assertThat(Bytes.toLong(table.get(new Get(row)).getValue(CF, Bytes.toBytes("n")))).isEqualTo(10);
    }
  }

  @Test
  void perFamilyTimeRangesOnGetsAndScans() throws IOException {
    TableName name = TableName.valueOf("ftr");
    byte[] other = Bytes.toBytes("other");
    conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(5).build())
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(other).setMaxVersions(5).build()).build());
    try (Table table = conn.getTable(name)) {
      byte[] row = Bytes.toBytes("r");
      for (long ts = 1; ts <= 4; ts++) {
        table.put(new Put(row).addColumn(CF, Q, ts, Bytes.toBytes("cf" + ts)).addColumn(other, Q, ts, Bytes.toBytes("o" + ts)));
      }
      Result r = table.get(new Get(row).readAllVersions().setColumnFamilyTimeRange(other, 1, 3));
      assertThat(r.getColumnCells(CF, Q)).hasSize(4);
      assertThat(r.getColumnCells(other, Q)).extracting(c -> c.getTimestamp()).containsExactly(2L, 1L);
      try (var scanner = table.getScanner(new org.apache.hadoop.hbase.client.Scan().setColumnFamilyTimeRange(CF, 4, 5))) {
        Result s = scanner.next();
        assertThat(Bytes.toString(s.getValue(CF, Q))).isEqualTo("cf4");
        assertThat(Bytes.toString(s.getValue(other, Q))).isEqualTo("o4");
      }
    }
  }

  @Test
  void columnConditionHonoursItsTimeRange() throws IOException {
    try (Table table = conn.getTable(TableName.valueOf("cond"))) {
      byte[] row = Bytes.toBytes("t");
      table.put(new Put(row).addColumn(CF, Q, 10L, Bytes.toBytes("old")));
      table.put(new Put(row).addColumn(CF, Q, 20L, Bytes.toBytes("new")));
      // Within [0, 15) the newest version is "old".
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Q, Bytes.toBytes("old"))
          .timeRange(TimeRange.between(0, 15)).build(new Put(row).addColumn(CF, Bytes.toBytes("a"), Bytes.toBytes("1"))))
          .isSuccess()).isTrue();
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Q, Bytes.toBytes("old"))
          .build(new Put(row).addColumn(CF, Bytes.toBytes("b"), Bytes.toBytes("1")))).isSuccess()).isFalse();
    }
  }
}
