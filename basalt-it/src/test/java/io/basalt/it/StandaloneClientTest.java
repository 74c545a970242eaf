package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class StandaloneClientTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  @TempDir static Path dir;
  static StandaloneServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static Configuration zkRegistry() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 3);
    return conf;
  }

  private static Configuration rpcRegistry() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", "127.0.0.1:" + server.regionServerAddress().getPort());
    conf.setInt("hbase.client.retries.number", 3);
    return conf;
  }

  @Test
  void createWriteReadScanDeleteThroughZooKeeperRegistry() throws Exception {
    roundTrip(zkRegistry(), TableName.valueOf("zk_t"));
  }

  @Test
  void createWriteReadScanDeleteThroughRpcRegistry() throws Exception {
    roundTrip(rpcRegistry(), TableName.valueOf("rpc_t"));
  }

  private static void roundTrip(Configuration conf, TableName name) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(3).build()).build(),
          new byte[][] {Bytes.toBytes("m")});
      assertThat(admin.tableExists(name)).isTrue();
      assertThat(admin.isTableEnabled(name)).isTrue();
      assertThat(admin.getRegions(name)).hasSize(2);
      assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF)).build())).isInstanceOf(TableExistsException.class);

      try (Table table = conn.getTable(name)) {
        List<Put> puts = new ArrayList<>();
        for (String row : List.of("apple", "avocado", "banana", "mango", "zucchini")) {
          puts.add(new Put(Bytes.toBytes(row)).addColumn(CF, Bytes.toBytes("q"), Bytes.toBytes("v-" + row)));
        }
        table.put(puts);
        table.put(new Put(Bytes.toBytes("apple")).addColumn(CF, Bytes.toBytes("q"), 5L, Bytes.toBytes("old")));

        Result r = table.get(new Get(Bytes.toBytes("apple")).readVersions(3));
        assertThat(r.getColumnCells(CF, Bytes.toBytes("q"))).hasSize(2);
        assertThat(Bytes.toString(r.getValue(CF, Bytes.toBytes("q")))).isEqualTo("v-apple");
        assertThat(table.exists(new Get(Bytes.toBytes("nothing")))).isFalse();

        List<String> rows = new ArrayList<>();
        try (ResultScanner s = table.getScanner(new Scan())) {
          for (Result x : s) {
            rows.add(Bytes.toString(x.getRow()));
          }
        }
        assertThat(rows).containsExactly("apple", "avocado", "banana", "mango", "zucchini");

        rows.clear();
        try (ResultScanner s = table.getScanner(new Scan().setFilter(new PrefixFilter(Bytes.toBytes("a"))))) {
          for (Result x : s) {
            rows.add(Bytes.toString(x.getRow()));
          }
        }
        assertThat(rows).containsExactly("apple", "avocado");

        rows.clear();
        try (ResultScanner s = table.getScanner(new Scan().setReversed(true))) {
          for (Result x : s) {
            rows.add(Bytes.toString(x.getRow()));
          }
        }
        assertThat(rows).containsExactly("zucchini", "mango", "banana", "avocado", "apple");

        table.delete(new Delete(Bytes.toBytes("banana")));
        assertThat(table.get(new Get(Bytes.toBytes("banana"))).isEmpty()).isTrue();
        assertThat(table.incrementColumnValue(Bytes.toBytes("counter"), CF, Bytes.toBytes("n"), 5)).isEqualTo(5);
        assertThat(table.incrementColumnValue(Bytes.toBytes("counter"), CF, Bytes.toBytes("n"), 2)).isEqualTo(7);
      }

      admin.disableTable(name);
      assertThat(admin.isTableDisabled(name)).isTrue();
      admin.deleteTable(name);
      assertThat(admin.tableExists(name)).isFalse();
      assertThatThrownBy(() -> admin.disableTable(name)).isInstanceOf(TableNotFoundException.class);
    }
  }
}
