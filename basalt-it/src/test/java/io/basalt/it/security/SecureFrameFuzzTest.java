package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.SecurityKeys;
import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.provider.SaslClientAuthenticationProviders;
import org.apache.hadoop.hbase.shaded.protobuf.RequestConverter;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzed frames with security on (Kerberos and ACLs): a valid connection of an unauthenticated client (preamble,
 * connection header claiming the superuser, a Put and a table creation) is mutated at random (bytes flipped,
 * length prefixes replaced, bytes inserted, the stream cut) and sent to both servers' ports. Whatever arrives, the
 * server answers or closes within the read timeout, nothing is written or created, and an authenticated client
 * still works. Seeded: {@code -Dfuzz.seed=N}, {@code -Dfuzz.cases=N}.
 */
@Timeout(300)
class SecureFrameFuzzTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final TableName TARGET = TableName.valueOf("fuzz_target");
  private static final String SERVER_PRINCIPAL = "hbase/_HOST@" + TestKdc.REALM;

  @TempDir static Path dir;
  static TestKdc kdc;
  static StandaloneServer server;
  static UserGroupInformation admin;
  static byte[] region;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start(java.nio.file.Files.createDirectories(dir.resolve("kdc")));
    String host = java.net.InetAddress.getByName("127.0.0.1").getCanonicalHostName().toLowerCase(Locale.ROOT);
    Path serverKeytab = kdc.keytab("hbase.keytab", "hbase/" + host);
    Path adminKeytab = kdc.keytab("admin.keytab", "admin");
    BasaltConfig c = StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0).withInfoPort(-1).settings()
        .with(SecurityKeys.AUTHENTICATION, "kerberos")
        .with(SecurityKeys.REGIONSERVER_PRINCIPAL, SERVER_PRINCIPAL)
        .with(SecurityKeys.REGIONSERVER_KEYTAB, serverKeytab.toString())
        .with(SecurityKeys.AUTHORIZATION, "true")
        .with(SecurityKeys.SUPERUSERS, "admin");
    server = new StandaloneServer(new StandaloneConfig(c));
    UserGroupInformation.setConfiguration(clientConf());
    SaslClientAuthenticationProviders.reset(); // a JVM-wide selector, see KerberosTest
    admin = UserGroupInformation.loginUserFromKeytabAndReturnUGI("admin@" + TestKdc.REALM, adminKeytab.toString());
    admin.doAs((java.security.PrivilegedExceptionAction<Void>) () -> {
      try (Connection conn = ConnectionFactory.createConnection(clientConf()); Admin a = conn.getAdmin()) {
        a.createTable(TableDescriptorBuilder.newBuilder(TARGET).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
        region = a.getRegions(TARGET).get(0).getRegionName();
      }
      return null;
    });
  }

  @AfterAll
  static void stop() throws IOException {
    UserGroupInformation.setConfiguration(new Configuration());
    SaslClientAuthenticationProviders.reset();
    if (server != null) {
      server.close();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  private static Configuration clientConf() {
    Configuration conf = HBaseConfiguration.create();
    if (server != null) {
      conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
    }
    conf.setInt("hbase.client.retries.number", 2);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    conf.set("hbase.master.kerberos.principal", SERVER_PRINCIPAL);
    conf.set("hbase.regionserver.kerberos.principal", SERVER_PRINCIPAL);
    conf.set("hadoop.security.auth_to_local", "RULE:[1:$1]\nRULE:[2:$1]\nDEFAULT");
    return conf;
  }

  /** What an unauthenticated client would send: SIMPLE, claiming the superuser, then a Put and a create. */
  private static byte[] hostileConnection(String service, byte authByte) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(new byte[] {'H', 'B', 'a', 's', 0, authByte});
    frame(out, RPCProtos.ConnectionHeader.newBuilder().setServiceName(service)
        .setUserInfo(RPCProtos.UserInformation.newBuilder().setEffectiveUser("admin")).build().toByteArray());
    ClientProtos.MutateRequest put = RequestConverter.buildMutateRequest(region,
        new org.apache.hadoop.hbase.client.Put(Bytes.toBytes("fuzzed")).addColumn(F, F, Bytes.toBytes("v")));
    call(out, 1, "Mutate", put);
    call(out, 2, "CreateTable", RequestConverter.buildCreateTableRequest(
        TableDescriptorBuilder.newBuilder(TableName.valueOf("fuzz_created")).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build(), null, 0, 0));
    return bytes.toByteArray();
  }

  private static void frame(DataOutputStream out, byte[] body) throws IOException {
    out.writeInt(body.length);
    out.write(body);
  }

  private static void call(DataOutputStream out, int id, String method, Message param) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    RPCProtos.RequestHeader.newBuilder().setCallId(id).setMethodName(method).setRequestParam(true).build()
        .writeDelimitedTo(body);
    param.writeDelimitedTo(body);
    frame(out, body.toByteArray());
  }

  /** One random change: bytes flipped, a 4-byte length replaced, bytes inserted, or the stream cut short. */
  private static byte[] mutate(byte[] in, Random rnd) {
    byte[] b = in.clone();
    switch (rnd.nextInt(4)) {
      case 0 -> {
        for (int i = 0, n = 1 + rnd.nextInt(4); i < n; i++) {
          b[rnd.nextInt(b.length)] ^= (byte) (1 + rnd.nextInt(255));
        }
      }
      case 1 -> {
        int at = 6 + rnd.nextInt(b.length - 10);
        int value = switch (rnd.nextInt(3)) {
          case 0 -> -1 - rnd.nextInt(1000);
          case 1 -> Integer.MAX_VALUE - rnd.nextInt(1000);
          default -> rnd.nextInt(1 << 20);
        };
        b[at] = (byte) (value >>> 24);
        b[at + 1] = (byte) (value >>> 16);
        b[at + 2] = (byte) (value >>> 8);
        b[at + 3] = (byte) value;
      }
      case 2 -> {
        int at = rnd.nextInt(b.length);
        byte[] junk = new byte[1 + rnd.nextInt(64)];
        rnd.nextBytes(junk);
        byte[] out = new byte[b.length + junk.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(junk, 0, out, at, junk.length);
        System.arraycopy(b, at, out, at + junk.length, b.length - at);
        return out;
      }
      default -> {
        return java.util.Arrays.copyOf(b, 1 + rnd.nextInt(b.length - 1));
      }
    }
    return b;
  }

  /** Sends the bytes and reads until the server closes, or for at most the read timeout (a frame may wait). */
  private static void send(InetSocketAddress port, byte[] bytes) throws IOException {
    try (Socket s = new Socket(port.getAddress(), port.getPort())) {
      s.setSoTimeout(2_000);
      try {
        s.getOutputStream().write(bytes);
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        while (in.read(buf) >= 0) {
          // drain error frames until the close
        }
      } catch (SocketTimeoutException | java.net.SocketException e) {
        // waiting for the rest of a frame, or reset by the server's close: both are fine
      }
    }
  }

  @Test
  void fuzzedFramesGetNothingDoneAndTheServerKeepsServing() throws Exception {
    long seed = Long.getLong("fuzz.seed", 20261124L);
    int cases = Integer.getInteger("fuzz.cases", 150);
    Random rnd = new Random(seed);
    InetSocketAddress[] ports = {server.regionServerAddress(), server.masterAddress()};
    String[] services = {"ClientService", "MasterService"};
    byte[] auths = {0x50, 0x51, 0x52};
    long started = System.nanoTime();
    for (int i = 0; i < cases; i++) {
      int target = rnd.nextInt(2);
      byte[] valid = hostileConnection(services[target], auths[rnd.nextInt(auths.length)]);
      byte[] bytes = rnd.nextInt(10) == 0 ? valid : mutate(valid, rnd);
      send(ports[target], bytes);
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    admin.doAs((java.security.PrivilegedExceptionAction<Void>) () -> {
      try (Connection conn = ConnectionFactory.createConnection(clientConf()); Admin a = conn.getAdmin();
           Table t = conn.getTable(TARGET)) {
        assertThat(a.tableExists(TableName.valueOf("fuzz_created"))).as("seed " + seed + ": a table was created").isFalse();
        try (ResultScanner rs = t.getScanner(new Scan())) {
          assertThat(rs.next()).as("seed " + seed + ": a row was written").isNull();
        }
        t.put(new org.apache.hadoop.hbase.client.Put(Bytes.toBytes("after")).addColumn(F, F, Bytes.toBytes("ok")));
        assertThat(t.exists(new org.apache.hadoop.hbase.client.Get(Bytes.toBytes("after")))).isTrue();
      }
      return null;
    });
    assertThat(millis).as("%d fuzzed connections answered or closed", cases).isLessThan(cases * 2_500L);
  }
}
