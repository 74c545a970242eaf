package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
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
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans spanning many RPCs: small caching (next-call sequence numbers), and a filter slower than the
 * client's RPC timeout (heartbeat responses).
 */
@Timeout(120)
class ScanHeartbeatTest {
  @TempDir Path dir;

  @Test
  void smallCachingScansEveryRowAcrossManyCalls() throws Exception {
    try (StandaloneServer server = new StandaloneServer(StandaloneConfig.defaults(dir).withPorts(0, 0, 0))) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
      byte[] cf = Bytes.toBytes("cf");
      TableName name = TableName.valueOf("many");
      try (Connection conn = ConnectionFactory.createConnection(conf)) {
        conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(cf)).build(),
            new byte[][] {Bytes.toBytes("row050")});
        try (Table table = conn.getTable(name)) {
          List<Put> puts = new ArrayList<>();
          for (int i = 0; i < 100; i++) {
            puts.add(new Put(Bytes.toBytes(String.format("row%03d", i))).addColumn(cf, cf, Bytes.toBytes(i)));
          }
          table.put(puts);
          for (boolean reversed : new boolean[] {false, true}) {
            int n = 0;
            try (ResultScanner s = table.getScanner(new Scan().setCaching(3).setReversed(reversed))) {
              for (Result r : s) {
                assertThat(Bytes.toInt(r.getValue(cf, cf))).isEqualTo(reversed ? 99 - n : n);
                n++;
              }
            }
            assertThat(n).isEqualTo(100);
          }
        }
      }
    }
  }

  @Test
  void theServersResultSizeCapCutsEveryCall() throws Exception {
    io.basalt.server.config.BasaltConfig settings = StandaloneConfig.defaults(dir).withPorts(0, 0, 0).withInfoPort(-1)
        .settings().with(io.basalt.server.config.ScannerKeys.MAX_RESULT_SIZE, "4096");
    try (StandaloneServer server = new StandaloneServer(new StandaloneConfig(settings))) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
      byte[] cf = Bytes.toBytes("cf");
      TableName name = TableName.valueOf("capped");
      try (Connection conn = ConnectionFactory.createConnection(conf)) {
        conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(cf)).build());
        try (Table table = conn.getTable(name)) {
          List<Put> puts = new ArrayList<>();
          for (int i = 0; i < 50; i++) {
            puts.add(new Put(Bytes.toBytes(String.format("row%03d", i))).addColumn(cf, cf, new byte[1000]));
          }
          table.put(puts);
          // The client asks for 100 rows and 2 MB a call: the server's 4 KB cap answers about 4 rows a call.
          Scan scan = new Scan().setCaching(100).setMaxResultSize(2L << 20).setScanMetricsEnabled(true);
          int n = 0;
          try (ResultScanner s = table.getScanner(scan)) {
            for (Result r : s) {
              assertThat(r.getRow()).isEqualTo(Bytes.toBytes(String.format("row%03d", n)));
              n++;
            }
            assertThat(n).isEqualTo(50);
            assertThat(s.getScanMetrics().countOfRPCcalls.get()).isGreaterThanOrEqualTo(10);
          }
        }
      }
    }
  }

  @Test
  void slowFilteredScanOutlivesTheRpcTimeout() throws Exception {
    try (StandaloneServer server = new StandaloneServer(StandaloneConfig.defaults(dir).withPorts(0, 0, 0))) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
      conf.setInt("hbase.rpc.timeout", 1000);
      conf.setInt("hbase.client.scanner.timeout.period", 1000);
      conf.setInt("hbase.client.retries.number", 1);
      byte[] cf = Bytes.toBytes("cf");
      TableName name = TableName.valueOf("slow");
      try (Connection conn = ConnectionFactory.createConnection(conf)) {
        conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(cf)).build());
        try (Table table = conn.getTable(name)) {
          List<Put> puts = new ArrayList<>();
          for (int i = 0; i < 60; i++) {
            puts.add(new Put(Bytes.toBytes(String.format("row%02d", i))).addColumn(cf, cf, Bytes.toBytes(i)));
          }
          puts.add(new Put(Bytes.toBytes("keep-me")).addColumn(cf, cf, Bytes.toBytes(1)));
          table.put(puts);
          List<String> rows = new ArrayList<>();
          long t0 = System.nanoTime();
          try (ResultScanner s = table.getScanner(new Scan().setFilter(new SlowFilter()))) {
            for (Result r : s) {
              rows.add(Bytes.toString(r.getRow()));
            }
          }
          assertThat(rows).containsExactly("keep-me");
          assertThat((System.nanoTime() - t0) / 1_000_000).as("took longer than one RPC timeout").isGreaterThan(2_000);
        }
      }
    }
  }
}
