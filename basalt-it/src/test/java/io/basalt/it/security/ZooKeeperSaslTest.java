package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster whose servers log in to ZooKeeper with SASL (DIGEST-MD5, a JAAS {@code Client} section) and create
 * their znodes with {@code basalt.zookeeper.secure.acls}: Basalt's own znodes are readable by that identity only,
 * the HBase client registry by everyone, so the unmodified HBase client, which has no ZooKeeper credentials, still
 * finds the cluster, while an anonymous ZooKeeper client cannot read Basalt's state.
 */
@Timeout(300)
class ZooKeeperSaslTest {
  private static final byte[] F = Bytes.toBytes("f");

  @TempDir static Path dir;
  private static final List<Process> processes = new ArrayList<>();

  @AfterAll
  static void stop() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      Processes.stop(processes.get(i), 10_000);
    }
  }

  private static Process start(List<String> jvm, String main, List<String> args, String name) throws IOException {
    Process p = Processes.startJava(jvm, System.getProperty("java.class.path"), main, args, log(name));
    processes.add(p);
    return p;
  }

  /** In the build's log directory, which outlives the test's temporary one. */
  private static Path log(String name) {
    return Processes.logDir().resolve("zk-sasl-" + name + ".log");
  }

  @Test
  void basaltsZnodesAreTheClustersAndTheRegistryStaysReadable() throws Exception {
    Path serverJaas = dir.resolve("zk-server.jaas");
    Files.writeString(serverJaas, "Server {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n"
        + "  user_basalt=\"zk-secret\";\n};\n", StandardCharsets.UTF_8);
    Path clientJaas = dir.resolve("zk-client.jaas");
    Files.writeString(clientJaas, "Client {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n"
        + "  username=\"basalt\"\n  password=\"zk-secret\";\n};\n", StandardCharsets.UTF_8);
    int[] ports = FreePorts.take(3);
    Path cfg = dir.resolve("zoo.cfg");
    Files.writeString(cfg, String.join("\n", "dataDir=" + dir.resolve("zookeeper"), "clientPort=" + ports[0],
        "clientPortAddress=127.0.0.1", "tickTime=500", "admin.enableServer=false",
        "authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider", ""), StandardCharsets.UTF_8);
    start(List.of("-Xmx128m", "-Djava.security.auth.login.config=" + serverJaas, "-Dzookeeper.admin.enableServer=false"),
        "org.apache.zookeeper.server.ZooKeeperServerMain", List.of(cfg.toString()), "zookeeper");
    awaitPort(ports[0]);
    String zookeeper = "127.0.0.1:" + ports[0];

    // asked for secure ACLs without a SASL login, a server stops at once, naming what is missing
    Process refused = start(List.of("-Xmx128m"), "io.basalt.server.launch.MasterMain", List.of("--zookeeper", zookeeper,
        "--host", "127.0.0.1", "--port", Integer.toString(FreePorts.take(1)[0]), "--info-port", "-1",
        "--basalt.zookeeper.secure.acls", "true", "--basalt.cluster.secret.file", dir.resolve("cluster.secret").toString()),
        "refused-master");
    assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(refused.exitValue()).isEqualTo(2);
    assertThat(Files.readString(log("refused-master"))).contains("no JAAS section 'Client'");

    List<String> jvm = List.of("-Xmx256m", "-Djava.security.auth.login.config=" + clientJaas);
    List<String> secure = List.of("--basalt.zookeeper.secure.acls", "true", "--basalt.cluster.secret.file",
        dir.resolve("cluster.secret").toString());
    List<String> master = new ArrayList<>(List.of("--zookeeper", zookeeper, "--host", "127.0.0.1", "--port",
        Integer.toString(ports[1]), "--info-port", "-1", "--replication-factor", "1"));
    master.addAll(secure);
    start(jvm, "io.basalt.server.launch.MasterMain", master, "master");
    int first = FreePorts.takeBlock(40);
    List<String> rs = new ArrayList<>(List.of("--zookeeper", zookeeper, "--host", "127.0.0.1", "--port",
        Integer.toString(ports[2]), "--info-port", "-1", "--cache-mb", "32", "--data-dir", dir.resolve("rs").toString(),
        "--replication-ports", first + "-" + (first + 39)));
    rs.addAll(secure);
    start(jvm, "io.basalt.server.launch.RegionServerMain", rs, "regionserver");

    // the unmodified client, with no ZooKeeper credentials at all, reads the registry and works
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", ports[0]);
    conf.setInt("hbase.client.retries.number", 10);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    conf.set("hbase.zookeeper.property.sasl.client", "false");
    TableName name = TableName.valueOf("zk_sasl");
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      awaitRegionServers(admin);
      admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
          .build());
      try (Table t = conn.getTable(name)) {
        t.put(new Put(Bytes.toBytes("r")).addColumn(F, F, Bytes.toBytes("v")));
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("r"))).getValue(F, F))).isEqualTo("v");
      }
    }

    // an anonymous ZooKeeper client: the registry is world-readable, Basalt's own znodes are the cluster's only
    ZKClientConfig anonymous = new ZKClientConfig();
    anonymous.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
    try (ZooKeeper zk = new ZooKeeper(zookeeper, 10_000, e -> { }, anonymous)) {
      for (String readable : List.of("/hbase", "/hbase/master", "/hbase/hbaseid", "/hbase/meta-region-server")) {
        assertThat(zk.getData(readable, false, new Stat())).as(readable).isNotNull();
        assertThat(zk.getACL(readable, new Stat())).as(readable)
            .contains(new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE))
            .contains(new ACL(ZooDefs.Perms.ALL, new Id("sasl", "basalt")));
      }
      // creator-only: an anonymous client may not even read its ACL (ZooKeeper asks READ or ADMIN for that)
      assertThatThrownBy(() -> zk.getACL("/basalt", new Stat())).isInstanceOf(KeeperException.NoAuthException.class);
      assertThatThrownBy(() -> zk.getData("/basalt", false, new Stat())).isInstanceOf(KeeperException.NoAuthException.class);
      assertThatThrownBy(() -> zk.getChildren("/basalt", false)).isInstanceOf(KeeperException.NoAuthException.class);
      assertThatThrownBy(() -> zk.create("/basalt/intruder", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
          org.apache.zookeeper.CreateMode.PERSISTENT)).isInstanceOf(KeeperException.NoAuthException.class);
      assertThatThrownBy(() -> zk.delete("/hbase/master", -1)).isInstanceOf(KeeperException.NoAuthException.class);
    }
  }

  private static void awaitPort(int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Processes.accepts(port)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("ZooKeeper does not listen on " + port + " after 60 s:\n"
            + Processes.tail(log("zookeeper"), 40));
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
        throw new AssertionError("no region server after 90 s:\n" + Processes.tail(log("master"), 40)
            + "\n" + Processes.tail(log("regionserver"), 40));
      }
      Thread.sleep(500);
    }
  }
}
