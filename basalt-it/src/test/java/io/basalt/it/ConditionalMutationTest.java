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

/** checkAndMutate with a filter condition and with a time range, through the real client. */
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
