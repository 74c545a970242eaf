package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Filters that steer the scan with seek hints (HBase's "first on row/column" cells). */
@Timeout(120)
class FilterHintTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] CF2 = Bytes.toBytes("cg");
  @TempDir static Path dir;
  static StandaloneServer server;
  static Connection conn;
  static Table table;

  @BeforeAll
  static void start() throws Exception {
    server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 2);
    conn = ConnectionFactory.createConnection(conf);
    TableName name = TableName.valueOf("hints");
    conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF2)).build());
    table = conn.getTable(name);
    List<Put> puts = new ArrayList<>();
    for (String row : List.of("a1x", "a2x", "b1x", "b2y")) {
      Put p = new Put(Bytes.toBytes(row));
      for (String q : List.of("apple", "apricot", "banana", "cherry")) {
        p.addColumn(CF, Bytes.toBytes(q), Bytes.toBytes(row + "/" + q));
        p.addColumn(CF2, Bytes.toBytes(q), Bytes.toBytes(row + "/" + q));
      }
      puts.add(p);
    }
    table.put(puts);
  }

  @AfterAll
  static void stop() throws IOException {
    if (table != null) {
      table.close();
    }
    if (conn != null) {
      conn.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static List<String> scan(Filter filter) throws IOException {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = table.getScanner(new Scan().setFilter(filter))) {
      for (Result r : s) {
        for (Cell c : r.rawCells()) {
          out.add(Bytes.toString(CellUtil.cloneRow(c)) + ":" + Bytes.toString(CellUtil.cloneFamily(c)) + ":"
              + Bytes.toString(CellUtil.cloneQualifier(c)));
        }
      }
    }
    return out;
  }

  @Test
  void columnPrefixSeeksWithinEachFamily() throws IOException {
    assertThat(scan(new ColumnPrefixFilter(Bytes.toBytes("ap")))).hasSize(16).allMatch(s -> s.contains(":ap"));
    assertThat(scan(new MultipleColumnPrefixFilter(new byte[][] {Bytes.toBytes("ba"), Bytes.toBytes("ch")})))
        .hasSize(16).allMatch(s -> s.endsWith(":banana") || s.endsWith(":cherry"));
  }

  @Test
  void columnRangeSeeks() throws IOException {
    assertThat(scan(new ColumnRangeFilter(Bytes.toBytes("apr"), true, Bytes.toBytes("c"), false)))
        .containsExactly("a1x:cf:apricot", "a1x:cf:banana", "a1x:cg:apricot", "a1x:cg:banana",
            "a2x:cf:apricot", "a2x:cf:banana", "a2x:cg:apricot", "a2x:cg:banana",
            "b1x:cf:apricot", "b1x:cf:banana", "b1x:cg:apricot", "b1x:cg:banana",
            "b2y:cf:apricot", "b2y:cf:banana", "b2y:cg:apricot", "b2y:cg:banana");
  }

  @Test
  void fuzzyRowSeeksBetweenRows() throws IOException {
    // "??x": any two bytes, then x (mask 1 = any byte, 0 = fixed).
    List<String> rows = new ArrayList<>();
    for (String s : scan(new FuzzyRowFilter(List.of(new Pair<>(Bytes.toBytes("??x"), new byte[] {1, 1, 0}))))) {
      String row = s.substring(0, 3);
      if (!rows.contains(row)) {
        rows.add(row);
      }
    }
    assertThat(rows).containsExactly("a1x", "a2x", "b1x");
  }
}
