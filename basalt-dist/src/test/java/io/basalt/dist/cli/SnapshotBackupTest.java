package io.basalt.dist.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The backup round trip: write, snapshot, {@code basalt snapshot export}, wipe the cluster, start a fresh one,
 * {@code basalt snapshot import}, clone, and read back every row (a real standalone server in this JVM each time).
 */
@Timeout(300)
class SnapshotBackupTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  @TempDir Path dir;

  private static String[] run(String... args) {
    CommandLine cl = BasaltCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  private static Connection connect(StandaloneServer s) throws IOException {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", s.zookeeperPort());
    return ConnectionFactory.createConnection(conf);
  }

  private static StandaloneServer start(Path data) throws Exception {
    return new StandaloneServer(StandaloneConfig.defaults(data).withPorts(0, 0, 0).withInfoPort(-1));
  }

  /** Every cell of the table as row/qualifier -> value (the latest version). */
  private static Map<String, String> read(Table t) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        r.getFamilyMap(CF).forEach((q, v) -> out.put(Bytes.toString(r.getRow()) + "/" + Bytes.toString(q),
            Bytes.toString(v)));
      }
    }
    return out;
  }

  @Test
  void aSnapshotExportedFromOneClusterIsImportedClonedAndReadBackWhollyInAFreshOne() throws Exception {
    TableName table = TableName.valueOf("orders");
    Path backup = dir.resolve("backup volume/orders-1");
    Map<String, String> written = new TreeMap<>();
    StandaloneServer a = start(dir.resolve("a"));
    try (Connection conn = connect(a); Admin admin = conn.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(table)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(3).build()).build(),
          new byte[][] {Bytes.toBytes("row-1000"), Bytes.toBytes("row-2000"), Bytes.toBytes("row-3000")});
      Random random = new Random(14);
      try (Table t = conn.getTable(table)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
          String row = String.format("row-%04d", i);
          for (int q = 0; q < 1 + random.nextInt(3); q++) {
            byte[] value = new byte[20 + random.nextInt(200)];
            random.nextBytes(value);
            String v = Bytes.toHex(value);
            puts.add(new Put(Bytes.toBytes(row)).addColumn(CF, Bytes.toBytes("q" + q), Bytes.toBytes(v)));
            written.put(row + "/q" + q, v);
          }
        }
        t.put(puts);
        for (int i = 0; i < 4000; i += 37) {
          String row = String.format("row-%04d", i);
          t.delete(new Delete(Bytes.toBytes(row)));
          written.keySet().removeIf(k -> k.startsWith(row + "/"));
        }
        assertThat(read(t)).isEqualTo(written);
      }
      admin.snapshot("orders-1", table);
      try (Table t = conn.getTable(table)) {
        t.put(new Put(Bytes.toBytes("row-9999")).addColumn(CF, Bytes.toBytes("q0"), Bytes.toBytes("after the snapshot")));
      }
    }
    String zk = "127.0.0.1:" + a.zookeeperPort();
    String[] r = run("snapshot", "export", "orders-1", backup.toString(), "--zookeeper", zk);
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1]).contains("exported snapshot orders-1 to " + backup);
    assertThat(Files.list(backup).map(p -> p.getFileName().toString())).contains("basalt-snapshot.manifest").hasSize(5);
    r = run("snapshot", "export", "orders-1", backup.toString(), "--zookeeper", zk);
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("holds an export already");

    // Wipe the first cluster: its data directory goes with it.
    a.close();
    io.basalt.storage.io.LocalStorageFiles.INSTANCE.deleteRecursively(dir.resolve("a"));

    StandaloneServer b = start(dir.resolve("b"));
    try {
      String zkB = "127.0.0.1:" + b.zookeeperPort();
      r = run("snapshot", "import", backup.toString(), "--zookeeper", zkB);
      assertThat(r[0]).as(r[2]).isEqualTo("0");
      assertThat(r[1]).contains("imported snapshot orders-1");
      try (Connection conn = connect(b); Admin admin = conn.getAdmin()) {
        assertThat(admin.listSnapshots()).extracting(SnapshotDescription::getName).containsExactly("orders-1");
        assertThat(admin.tableExists(table)).isFalse();
        admin.cloneSnapshot("orders-1", table);
        try (Table t = conn.getTable(table)) {
          assertThat(read(t)).isEqualTo(written);
        }
        assertThat(admin.getRegions(table)).hasSize(4);
        assertThat(admin.getDescriptor(table).getColumnFamily(CF).getMaxVersions()).isEqualTo(3);
        r = run("snapshot", "import", backup.toString(), "--zookeeper", zkB);
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).contains("orders-1").contains("already");
        admin.deleteSnapshot("orders-1");
      }
      r = run("snapshot", "import", dir.resolve("nothing here").toString(), "--zookeeper", zkB);
      assertThat(r[0]).isEqualTo("2");
      assertThat(r[2]).contains("is not a snapshot export");
    } finally {
      b.close();
    }
  }
}
