package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(180)
class AdminAndBatchTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] Q = Bytes.toBytes("q");
  @TempDir static Path dir;
  static StandaloneServer server;
  static Connection conn;

  @BeforeAll
  static void start() throws Exception {
    server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
    conn = ConnectionFactory.createConnection(conf());
  }

  static Configuration conf() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 3);
    return conf;
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

  private static TableName create(String name, byte[]... splits) throws IOException {
    TableName t = TableName.valueOf(name);
    conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF)).build(),
        splits.length == 0 ? null : splits);
    return t;
  }

  private static int count(Table t) throws IOException {
    int n = 0;
    try (var s = t.getScanner(new Scan())) {
      while (s.next() != null) {
        n++;
      }
    }
    return n;
  }

  @Test
  void truncateKeepsSplitsAndEmptiesTheTable() throws IOException {
    TableName t = create("trunc", Bytes.toBytes("k"));
    try (Table table = conn.getTable(t); Admin admin = conn.getAdmin()) {
      table.put(List.of(new Put(Bytes.toBytes("a")).addColumn(CF, Q, Bytes.toBytes("1")),
          new Put(Bytes.toBytes("z")).addColumn(CF, Q, Bytes.toBytes("2"))));
      assertThat(count(table)).isEqualTo(2);
      admin.disableTable(t);
      admin.truncateTable(t, true);
      assertThat(admin.isTableEnabled(t)).isTrue();
      assertThat(admin.getRegions(t)).hasSize(2);
      assertThat(count(table)).isZero();
    }
  }

  @Test
  void familyChangesTakeEffect() throws IOException {
    TableName t = create("families");
    try (Table table = conn.getTable(t); Admin admin = conn.getAdmin()) {
      admin.addColumnFamily(t, ColumnFamilyDescriptorBuilder.of("extra"));
      table.put(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("extra"), Q, Bytes.toBytes("x")));
      admin.modifyColumnFamily(t, ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(3).build());
      for (long ts = 1; ts <= 4; ts++) {
        table.put(new Put(Bytes.toBytes("r")).addColumn(CF, Q, ts, Bytes.toBytes("v" + ts)));
      }
      Result all = table.get(new Get(Bytes.toBytes("r")).readAllVersions());
      assertThat(all.getColumnCells(CF, Q)).hasSize(3);
      TableDescriptor desc = admin.getDescriptor(t);
      assertThat(desc.getColumnFamily(CF).getMaxVersions()).isEqualTo(3);
      assertThat(desc.getColumnFamilyNames()).hasSize(2);
      admin.deleteColumnFamily(t, Bytes.toBytes("extra"));
      assertThat(admin.getDescriptor(t).getColumnFamilyNames()).hasSize(1);
      assertThat(table.get(new Get(Bytes.toBytes("r"))).getValue(Bytes.toBytes("extra"), Q)).isNull();
    }
  }

  @Test
  void namespacesAndListings() throws IOException {
    try (Admin admin = conn.getAdmin()) {
      admin.createNamespace(NamespaceDescriptor.create("ns1").addConfiguration("k", "v").build());
      assertThatThrownBy(() -> admin.createNamespace(NamespaceDescriptor.create("ns1").build()))
          .isInstanceOf(NamespaceExistException.class);
      assertThat(admin.getNamespaceDescriptor("ns1").getConfigurationValue("k")).isEqualTo("v");
      assertThat(admin.listNamespaceDescriptors()).extracting(NamespaceDescriptor::getName).contains("default", "hbase", "ns1");
      TableName t = create("ns1:inside");
      assertThat(admin.listTableNamesByNamespace("ns1")).containsExactly(t);
      assertThat(admin.listTableDescriptors()).extracting(TableDescriptor::getTableName).contains(t);
      assertThatThrownBy(() -> admin.deleteNamespace("ns1")).isInstanceOf(DoNotRetryIOException.class);
      admin.disableTable(t);
      admin.deleteTable(t);
      admin.deleteNamespace("ns1");
      assertThat(admin.listNamespaceDescriptors()).extracting(NamespaceDescriptor::getName).doesNotContain("ns1");
      ClusterMetrics metrics = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
      assertThat(metrics.getLiveServerMetrics()).hasSize(1);
      assertThat(admin.getRegionServers()).hasSize(1);
    }
  }

  @Test
  void batchesWithMixedActionsAndPerActionErrors() throws Exception {
    TableName t = create("batch", Bytes.toBytes("m"));
    try (Table table = conn.getTable(t)) {
      table.put(new Put(Bytes.toBytes("b")).addColumn(CF, Q, Bytes.toBytes("before")));
      List<Row> actions = new ArrayList<>();
      actions.add(new Put(Bytes.toBytes("a")).addColumn(CF, Q, Bytes.toBytes("1")));
      actions.add(new Put(Bytes.toBytes("x")).addColumn(CF, Q, Bytes.toBytes("2")));
      actions.add(new Get(Bytes.toBytes("b")));
      actions.add(new Delete(Bytes.toBytes("b")));
      actions.add(new Put(Bytes.toBytes("y")).addColumn(Bytes.toBytes("nope"), Q, Bytes.toBytes("3")));
      Object[] results = new Object[actions.size()];
      assertThatThrownBy(() -> table.batch(actions, results))
          .isInstanceOf(org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException.class);
      assertThat(Bytes.toString(((Result) results[2]).getValue(CF, Q))).isEqualTo("before");
      assertThat(results[4]).isInstanceOf(org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException.class);
      assertThat(Bytes.toString(table.get(new Get(Bytes.toBytes("x"))).getValue(CF, Q))).isEqualTo("2");
      assertThat(table.exists(new Get(Bytes.toBytes("b")))).isFalse();

      table.mutateRow(RowMutations.of(List.of(new Put(Bytes.toBytes("r")).addColumn(CF, Bytes.toBytes("a"), Bytes.toBytes("1")),
          new Put(Bytes.toBytes("r")).addColumn(CF, Bytes.toBytes("b"), Bytes.toBytes("2")))));
      assertThat(table.get(new Get(Bytes.toBytes("r"))).size()).isEqualTo(2);
    }
  }

  @Test
  void checkAndMutateAndAppend() throws IOException {
    TableName t = create("cam");
    try (Table table = conn.getTable(t)) {
      byte[] row = Bytes.toBytes("r");
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(CF, Q)
          .build(new Put(row).addColumn(CF, Q, Bytes.toBytes("5")))).isSuccess()).isTrue();
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(CF, Q)
          .build(new Put(row).addColumn(CF, Q, Bytes.toBytes("6")))).isSuccess()).isFalse();
      // HBase compares "operand OP stored": 3 < 5 holds.
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(CF, Q, CompareOperator.LESS, Bytes.toBytes("3"))
          .build(new Put(row).addColumn(CF, Bytes.toBytes("hit"), Bytes.toBytes("y")))).isSuccess()).isTrue();
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Q, Bytes.toBytes("5"))
          .build(RowMutations.of(List.of(new Delete(row).addColumns(CF, Bytes.toBytes("hit")),
              new Put(row).addColumn(CF, Bytes.toBytes("both"), Bytes.toBytes("z")))))).isSuccess()).isTrue();
      Result r = table.get(new Get(row));
      assertThat(r.getValue(CF, Bytes.toBytes("hit"))).isNull();
      assertThat(Bytes.toString(r.getValue(CF, Bytes.toBytes("both")))).isEqualTo("z");

      Result appended = table.append(new Append(row).addColumn(CF, Bytes.toBytes("s"), Bytes.toBytes("ab")));
      assertThat(Bytes.toString(appended.getValue(CF, Bytes.toBytes("s")))).isEqualTo("ab");
      appended = table.append(new Append(row).addColumn(CF, Bytes.toBytes("s"), Bytes.toBytes("cd")));
      assertThat(Bytes.toString(appended.getValue(CF, Bytes.toBytes("s")))).isEqualTo("abcd");
    }
  }

  @Test
  void asyncClientReadsAndWrites() throws Exception {
    TableName t = create("async", Bytes.toBytes("m"));
    try (AsyncConnection async = ConnectionFactory.createAsyncConnection(conf()).get()) {
      AsyncTable<?> table = async.getTable(t);
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        puts.add(new Put(Bytes.toBytes(String.format("k%03d", i))).addColumn(CF, Q, Bytes.toBytes(i)));
      }
      table.putAll(puts).get();
      assertThat(Bytes.toInt(table.get(new Get(Bytes.toBytes("k042"))).get().getValue(CF, Q))).isEqualTo(42);
      assertThat(table.scanAll(new Scan()).get()).hasSize(100);
      assertThat(table.scanAll(new Scan().withStartRow(Bytes.toBytes("k090")).setReversed(true).setLimit(5)).get())
          .extracting(r -> Bytes.toString(r.getRow())).containsExactly("k090", "k089", "k088", "k087", "k086");
      assertThat(async.getAdmin().tableExists(t).get()).isTrue();
    }
  }
}
