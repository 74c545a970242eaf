package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code basalt standalone} as a real process: serves clients, stops cleanly on SIGTERM, restarts with its data. */
@Timeout(180)
class StandaloneProcessTest {
  @TempDir Path dir;

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static final class Standalone implements AutoCloseable {
    final Process process;
    final List<String> output = new ArrayList<>();
    final CountDownLatch up = new CountDownLatch(1);

    Standalone(Path dataDir, int zk, int master, int rs) throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      process = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
          "io.basalt.server.standalone.StandaloneMain", "--data-dir", dataDir.toString(), "--zookeeper-port", Integer.toString(zk),
          "--master-port", Integer.toString(master), "--regionserver-port", Integer.toString(rs))
          .redirectErrorStream(true).start();
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            synchronized (output) {
              output.add(line);
            }
            if (line.contains("Basalt standalone is up")) {
              up.countDown();
            }
          }
        } catch (IOException ignored) {
          // process gone
        }
      });
      reader.setDaemon(true);
      reader.start();
    }

    void awaitUp() throws InterruptedException {
      if (!up.await(60, TimeUnit.SECONDS)) {
        throw new AssertionError("standalone did not come up:\n" + String.join("\n", output));
      }
    }

    /** SIGTERM, then the exit code. */
    int terminate() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("standalone ignored SIGTERM");
      }
      return process.exitValue();
    }

    @Override
    public void close() {
      if (process.isAlive()) {
        process.destroyForcibly();
      }
    }
  }

  @Test
  void servesStopsOnSigtermAndRestartsWithItsData() throws Exception {
    Path data = dir.resolve("data");
    int zk = freePort();
    int master = freePort();
    int rs = freePort();
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zk);
    conf.setInt("hbase.client.retries.number", 5);
    TableName name = TableName.valueOf("durable");
    byte[] cf = Bytes.toBytes("cf");
    String clusterId;
    try (Standalone first = new Standalone(data, zk, master, rs)) {
      first.awaitUp();
      try (Connection conn = ConnectionFactory.createConnection(conf)) {
        conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(cf)).build());
        try (Table t = conn.getTable(name)) {
          for (int i = 0; i < 100; i++) {
            t.put(new Put(Bytes.toBytes("row" + i)).addColumn(cf, cf, Bytes.toBytes(i)));
          }
        }
        clusterId = conn.getAdmin().getClusterMetrics().getClusterId();
      }
      assertThat(first.terminate()).as("exit code after SIGTERM").isIn(0, 143);
    }
    try (Standalone second = new Standalone(data, zk, master, rs)) {
      second.awaitUp();
      try (Connection conn = ConnectionFactory.createConnection(conf); Table t = conn.getTable(name)) {
        for (int i = 0; i < 100; i++) {
          assertThat(Bytes.toInt(t.get(new Get(Bytes.toBytes("row" + i))).getValue(cf, cf))).isEqualTo(i);
        }
        assertThat(conn.getAdmin().getClusterMetrics().getClusterId()).as("cluster id is stable").isEqualTo(clusterId);
      }
      second.terminate();
    }
  }
}
