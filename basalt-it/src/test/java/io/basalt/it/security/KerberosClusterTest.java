package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.Processes;
import io.basalt.storage.testing.FreePorts;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import org.apache.hadoop.hbase.protobuf.generated.AuthenticationProtos;
import org.apache.hadoop.hbase.security.token.AuthenticationTokenIdentifier;
import org.apache.hadoop.hbase.security.token.ClientTokenUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kerberos across separate processes started by their launchers (ZooKeeper, a master, two region servers, each
 * logged in from its own keytab with its own host principal): the unmodified client with a ticket administers,
 * writes and reads; a token the master issued authenticates at the region servers, which never saw it issued
 * (the signing key travels sealed through ZooKeeper).
 */
@Timeout(300)
class KerberosClusterTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final String PRINCIPAL = "hbase/_HOST@" + TestKdc.REALM;
  private static final String ALICE = "alice@" + TestKdc.REALM;

  @TempDir static Path dir;
  private static final List<Process> processes = new ArrayList<>();
  private static TestKdc kdc;

  @AfterAll
  static void stop() throws IOException {
    for (Process p : processes) {
      Processes.stop(p, 10_000);
    }
    UserGroupInformation.setConfiguration(new Configuration());
    org.apache.hadoop.hbase.security.provider.SaslClientAuthenticationProviders.reset();
    if (kdc != null) {
      kdc.close();
    }
  }

  private static Process start(List<String> jvm, String main, List<String> args, String name) throws Exception {
    Process p = Processes.startJava(jvm, System.getProperty("java.class.path"), main, args, dir.resolve(name + ".log"));
    processes.add(p);
    return p;
  }

  private static Configuration clientConf(int zookeeperPort) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zookeeperPort);
    conf.setInt("hbase.client.retries.number", 10);
    conf.setInt("hbase.client.pause", 200);
    conf.setInt("hbase.rpc.timeout", 10_000);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    conf.set("hbase.master.kerberos.principal", PRINCIPAL);
    conf.set("hbase.regionserver.kerberos.principal", PRINCIPAL);
    conf.set("hadoop.security.auth_to_local", "RULE:[1:$1]\nRULE:[2:$1]\nDEFAULT");
    return conf;
  }

  @Test
  void aClusterOfProcessesAuthenticatesTicketsAndTokensEverywhere() throws Exception {
    java.nio.file.Files.createDirectories(dir.resolve("kdc"));
    kdc = TestKdc.start(dir.resolve("kdc"));
    String host = InetAddress.getByName("127.0.0.1").getCanonicalHostName().toLowerCase(Locale.ROOT);
    Path keytab = kdc.keytab("hbase.keytab", "hbase/" + host);
    Path aliceKeytab = kdc.keytab("alice.keytab", "alice");
    int[] ports = FreePorts.take(4);
    List<String> jvm = List.of("-Xmx256m", "-Djava.security.krb5.conf=" + kdc.krb5conf());
    String zookeeper = "127.0.0.1:" + ports[0];
    String secret = dir.resolve("cluster.secret").toString();
    List<String> kerberos = List.of("--hbase.security.authentication", "kerberos",
        "--hbase.master.kerberos.principal", PRINCIPAL, "--hbase.master.keytab.file", keytab.toString(),
        "--hbase.regionserver.kerberos.principal", PRINCIPAL, "--hbase.regionserver.keytab.file", keytab.toString(),
        "--basalt.cluster.secret.file", secret);
    start(List.of("-Xmx128m"), "io.basalt.server.launch.ZooKeeperMain", List.of("--host", "127.0.0.1", "--port",
        Integer.toString(ports[0]), "--data-dir", dir.resolve("zookeeper").toString()), "zookeeper");
    List<String> master = new ArrayList<>(List.of("--zookeeper", zookeeper, "--host", "127.0.0.1", "--port",
        Integer.toString(ports[1]), "--info-port", "-1", "--replication-factor", "1"));
    master.addAll(kerberos);
    start(jvm, "io.basalt.server.launch.MasterMain", master, "master");
    for (int i = 0; i < 2; i++) {
      int first = FreePorts.takeBlock(40);
      List<String> rs = new ArrayList<>(List.of("--zookeeper", zookeeper, "--host", "127.0.0.1", "--port",
          Integer.toString(ports[2 + i]), "--info-port", "-1", "--cache-mb", "32", "--data-dir",
          dir.resolve("rs" + i).toString(), "--replication-ports", first + "-" + (first + 39)));
      rs.addAll(kerberos);
      start(jvm, "io.basalt.server.launch.RegionServerMain", rs, "regionserver-" + i);
    }

    UserGroupInformation.setConfiguration(clientConf(ports[0]));
    // A JVM-wide singleton configured by the first connection (see KerberosTest).
    org.apache.hadoop.hbase.security.provider.SaslClientAuthenticationProviders.reset();
    UserGroupInformation alice = UserGroupInformation.loginUserFromKeytabAndReturnUGI(ALICE, aliceKeytab.toString());
    Configuration conf = clientConf(ports[0]);
    TableName name = TableName.valueOf("kerberos_cluster");
    Token<AuthenticationTokenIdentifier> token = alice.doAs((java.security.PrivilegedExceptionAction<Token<AuthenticationTokenIdentifier>>) () -> {
      try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
        awaitRegionServers(admin, 2);
        admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build(), new byte[][] {Bytes.toBytes("m")});
        try (Table t = conn.getTable(name)) {
          for (String row : new String[] {"a", "z"}) { // one row in each region
            t.put(new Put(Bytes.toBytes(row)).addColumn(F, Q, Bytes.toBytes(row)));
          }
          assertThat(whoAmI(t, "a").getAuthMethod()).isEqualTo("KERBEROS");
        }
        return ClientTokenUtil.obtainToken(conn);
      }
    });

    UserGroupInformation holder = UserGroupInformation.createRemoteUser(ALICE);
    holder.addToken(token);
    holder.doAs((java.security.PrivilegedExceptionAction<Void>) () -> {
      try (Connection conn = ConnectionFactory.createConnection(conf); Table t = conn.getTable(name)) {
        for (String row : new String[] {"a", "z"}) {
          assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes(row))).getValue(F, Q))).isEqualTo(row);
          AuthenticationProtos.WhoAmIResponse who = whoAmI(t, row);
          assertThat(who.getUsername()).isEqualTo(ALICE);
          assertThat(who.getAuthMethod()).isEqualTo("TOKEN");
        }
      }
      return null;
    });
    AuthenticationTokenIdentifier id = new AuthenticationTokenIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(token.getIdentifier())));
    assertThat(id.getUsername()).isEqualTo(ALICE);
  }

  private static void awaitRegionServers(Admin admin, int n) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      try {
        if (admin.getClusterMetrics().getLiveServerMetrics().size() >= n) {
          return;
        }
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("fewer than " + n + " region servers after 90 s");
      }
      Thread.sleep(500);
    }
  }

  @SuppressWarnings("deprecation")
  private static AuthenticationProtos.WhoAmIResponse whoAmI(Table t, String row) throws IOException {
    try {
      return AuthenticationProtos.AuthenticationService.newBlockingStub(t.coprocessorService(Bytes.toBytes(row)))
          .whoAmI(null, AuthenticationProtos.WhoAmIRequest.getDefaultInstance());
    } catch (com.google.protobuf.ServiceException e) {
      throw new IOException(e);
    }
  }
}
