package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.Processes;
import io.basalt.storage.testing.FreePorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster whose ZooKeeper accepts TLS only: ZooKeeper's own server (ZooKeeperServerMain, a child JVM) with just a
 * secure client port (Netty, client certificates required), a master and a region server from the launchers given
 * HBase's spelling of ZooKeeper's client TLS settings ({@code hbase.zookeeper.property.client.secure},
 * {@code ...clientCnxnSocket}, {@code ...ssl.keyStore.*}, {@code ...ssl.trustStore.*}), and the unmodified HBase
 * client with the same settings (its ReadOnlyZKClient reads them through ZKConfig.getZKClientConfig).
 */
@Timeout(300)
class ZooKeeperTlsTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final String NETTY = "org.apache.zookeeper.ClientCnxnSocketNetty";

  @TempDir static Path dir;
  private static final List<Process> processes = new ArrayList<>();

  @AfterAll
  static void stop() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      Processes.stop(processes.get(i), 10_000);
    }
  }

  private static Process start(List<String> jvm, String main, List<String> args, String name) throws IOException {
    Process p = Processes.startJava(jvm, System.getProperty("java.class.path"), main, args, dir.resolve(name + ".log"));
    processes.add(p);
    return p;
  }

  /** HBase's spelling of ZooKeeper's client TLS properties, as launcher options (--key value). */
  private static List<String> zookeeperTls(Path keystore, Path truststore) {
    return List.of("--hbase.zookeeper.property.client.secure", "true",
        "--hbase.zookeeper.property.clientCnxnSocket", NETTY,
        "--hbase.zookeeper.property.ssl.keyStore.location", keystore.toString(),
        "--hbase.zookeeper.property.ssl.keyStore.password", TestPki.PASSWORD,
        "--hbase.zookeeper.property.ssl.trustStore.location", truststore.toString(),
        "--hbase.zookeeper.property.ssl.trustStore.password", TestPki.PASSWORD);
  }

  @Test
  void aClusterWorksThroughZooKeeperOverTlsOnly() throws Exception {
    TestPki pki = TestPki.create(dir, "zk-ca");
    Path trust = pki.truststore();
    Path zkKeystore = pki.keystore("zookeeper");
    Path serverKeystore = pki.keystore("basalt-server");
    Path clientKeystore = pki.keystore("client");
    int[] ports = FreePorts.take(3);
    Path cfg = dir.resolve("zoo.cfg");
    Files.writeString(cfg, String.join("\n", "dataDir=" + dir.resolve("zookeeper"), "secureClientPort=" + ports[0],
        "secureClientPortAddress=127.0.0.1", "tickTime=500", "admin.enableServer=false", ""), StandardCharsets.UTF_8);
    start(List.of("-Xmx128m", "-Dzookeeper.serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
        "-Dzookeeper.ssl.keyStore.location=" + zkKeystore, "-Dzookeeper.ssl.keyStore.password=" + TestPki.PASSWORD,
        "-Dzookeeper.ssl.trustStore.location=" + trust, "-Dzookeeper.ssl.trustStore.password=" + TestPki.PASSWORD,
        "-Dzookeeper.admin.enableServer=false"), "org.apache.zookeeper.server.ZooKeeperServerMain",
        List.of(cfg.toString()), "zookeeper");
    awaitPort(ports[0]);
    String zookeeper = "127.0.0.1:" + ports[0];

    // the port speaks TLS only: a plaintext ZooKeeper client never gets a session
    ZKClientConfig plain = new ZKClientConfig();
    plain.setProperty(ZKClientConfig.SECURE_CLIENT, "false");
    try (ZooKeeper zk = new ZooKeeper(zookeeper, 3_000, e -> { }, plain)) {
      Thread.sleep(3_000);
      assertThat(zk.getState().isConnected()).isFalse();
    }

    // a server asked for TLS without the Netty socket stops at once, naming the missing setting
    Process refused = start(List.of("-Xmx128m"), "io.basalt.server.launch.MasterMain", List.of("--zookeeper", zookeeper,
        "--host", "127.0.0.1", "--port", Integer.toString(FreePorts.take(1)[0]), "--info-port", "-1",
        "--hbase.zookeeper.property.client.secure", "true", "--basalt.cluster.secret.file",
        dir.resolve("cluster.secret").toString()), "refused-master");
    assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(refused.exitValue()).isEqualTo(2);
    assertThat(Files.readString(dir.resolve("refused-master.log")))
        .contains("hbase.zookeeper.property.clientCnxnSocket").contains(NETTY);

    List<String> tls = zookeeperTls(serverKeystore, trust);
    String secret = dir.resolve("cluster.secret").toString();
    List<String> master = new ArrayList<>(List.of("--zookeeper", zookeeper, "--host", "127.0.0.1", "--port",
        Integer.toString(ports[1]), "--info-port", "-1", "--replication-factor", "1",
        "--basalt.cluster.secret.file", secret));
    master.addAll(tls);
    start(List.of("-Xmx256m"), "io.basalt.server.launch.MasterMain", master, "master");
    int first = FreePorts.takeBlock(40);
    List<String> rs = new ArrayList<>(List.of("--zookeeper", zookeeper, "--host", "127.0.0.1", "--port",
        Integer.toString(ports[2]), "--info-port", "-1", "--cache-mb", "32", "--data-dir", dir.resolve("rs").toString(),
        "--replication-ports", first + "-" + (first + 39), "--basalt.cluster.secret.file", secret));
    rs.addAll(tls);
    start(List.of("-Xmx256m"), "io.basalt.server.launch.RegionServerMain", rs, "regionserver");

    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", ports[0]);
    conf.setInt("hbase.client.retries.number", 10);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    for (int i = 0; i < tls.size(); i += 2) {
      conf.set(tls.get(i).substring(2), tls.get(i + 1));
    }
    conf.set("hbase.zookeeper.property.ssl.keyStore.location", clientKeystore.toString());
    TableName name = TableName.valueOf("zk_tls");
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      awaitRegionServers(admin);
      admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
          .build());
      try (Table t = conn.getTable(name)) {
        t.put(new Put(Bytes.toBytes("r")).addColumn(F, F, Bytes.toBytes("over tls")));
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("r"))).getValue(F, F))).isEqualTo("over tls");
      }
    }
  }

  private static void awaitPort(int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Processes.accepts(port)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("ZooKeeper does not listen on " + port + " after 60 s:\n"
            + Processes.tail(dir.resolve("zookeeper.log"), 40));
      }
      Thread.sleep(100);
    }
  }

  private static void awaitRegionServers(Admin admin) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      try {
        if (admin.getClusterMetrics().getLiveServerMetrics().size() >= 1) {
          return;
        }
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no region server after 90 s:\n" + Processes.tail(dir.resolve("master.log"), 40)
            + "\n" + Processes.tail(dir.resolve("regionserver.log"), 40));
      }
      Thread.sleep(500);
    }
  }
}
