package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.SecurityKeys;
import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import io.basalt.server.status.StatusServer;
import java.net.HttpURLConnection;
import java.net.URL;
import javax.net.ssl.HttpsURLConnection;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the RPC ports as HBase 2.6 configures it, through the unmodified HBase client: keystores and
 * truststores of a CA the test makes, client certificates required or not, TLS and plaintext on one port,
 * certificates reloaded without a restart, and settings that cannot be honoured stopping the server.
 */
@Timeout(300)
class TlsTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir static Path pkiDir;
  static TestPki ca;
  static TestPki otherCa;
  static Path server;
  static Path client;
  static Path expired;
  static Path stranger;
  static Path elsewhere;

  @TempDir Path data;

  @BeforeAll
  static void makeCertificates() throws Exception {
    ca = TestPki.create(pkiDir, "test-ca");
    otherCa = TestPki.create(pkiDir, "other-ca");
    server = ca.keystore("server");
    client = ca.keystore("client");
    expired = ca.keystore("expired", "-10d", 1);
    stranger = otherCa.keystore("stranger");
    elsewhere = ca.keystore("elsewhere", null, 1, "dns:elsewhere.invalid");
  }

  private StandaloneServer start(Map<String, String> security) throws Exception {
    BasaltConfig c = StandaloneConfig.defaults(data).withPorts(0, 0, 0).withInfoPort(-1).settings();
    for (var e : security.entrySet()) {
      c = c.with(io.basalt.server.config.KnownKeys.byName(e.getKey()).orElseThrow(), e.getValue());
    }
    return new StandaloneServer(new StandaloneConfig(c));
  }

  private static Map<String, String> serverTls(boolean plaintextToo, String clientAuth) throws Exception {
    return Map.of(SecurityKeys.SERVER_TLS.name(), "true",
        SecurityKeys.SUPPORT_PLAINTEXT.name(), Boolean.toString(plaintextToo),
        SecurityKeys.CLIENT_AUTH.name(), clientAuth,
        SecurityKeys.KEYSTORE_LOCATION.name(), server.toString(),
        SecurityKeys.KEYSTORE_PASSWORD.name(), TestPki.PASSWORD,
        SecurityKeys.TRUSTSTORE_LOCATION.name(), ca.truststore().toString(),
        SecurityKeys.TRUSTSTORE_PASSWORD.name(), TestPki.PASSWORD);
  }

  /** The unmodified client's settings: HBase's own keys; {@code keystore} null for no client certificate. */
  private static Configuration clientConf(StandaloneServer s, boolean tls, Path keystore) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", s.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", s.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 2);
    conf.setInt("hbase.client.pause", 100);
    conf.setInt("hbase.rpc.timeout", 5_000);
    conf.setInt("hbase.client.operation.timeout", 15_000);
    conf.setInt("hbase.client.meta.operation.timeout", 15_000);
    if (tls) {
      conf.setBoolean("hbase.client.netty.tls.enabled", true);
      conf.set("hbase.rpc.tls.truststore.location", ca.truststore().toString());
      conf.set("hbase.rpc.tls.truststore.password", TestPki.PASSWORD);
      if (keystore != null) {
        conf.set("hbase.rpc.tls.keystore.location", keystore.toString());
        conf.set("hbase.rpc.tls.keystore.password", TestPki.PASSWORD);
      }
    }
    return conf;
  }

  private static void roundTrip(Configuration conf, String table) throws IOException {
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf(table);
      if (!admin.tableExists(name)) {
        admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
      }
      try (Table t = conn.getTable(name)) {
        t.put(new Put(Bytes.toBytes("row")).addColumn(F, Q, Bytes.toBytes(table)));
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("row"))).getValue(F, Q))).isEqualTo(table);
      }
    }
  }

  @Test
  void theUnmodifiedClientConnectsWithItsCertificateAndOthersAreRefused() throws Exception {
    try (StandaloneServer s = start(serverTls(false, "NEED"))) {
      // Table creation also runs the master's control calls to the region server: over TLS, as a member.
      roundTrip(clientConf(s, true, client), "over_tls");

      assertThatThrownBy(() -> roundTrip(clientConf(s, false, null), "plaintext"))
          .as("plaintext is refused when supportplaintext is false").isInstanceOf(IOException.class);
      assertThatThrownBy(() -> roundTrip(clientConf(s, true, null), "no_certificate"))
          .as("NEED: no client certificate, no connection").isInstanceOf(IOException.class);

      InetSocketAddress rs = s.regionServerAddress();
      assertThat(handshake(rs, client, ca.truststore())).isEqualTo("CN=server,O=basalt-test");
      assertThatThrownBy(() -> handshake(rs, expired, ca.truststore())).as("an expired client certificate")
          .isInstanceOf(IOException.class);
      assertThatThrownBy(() -> handshake(rs, stranger, ca.truststore())).as("a certificate of another CA")
          .isInstanceOf(IOException.class);
      assertThatThrownBy(() -> handshake(rs, elsewhere, ca.truststore()))
          .as("a certificate naming another host (verify.client.hostname)").isInstanceOf(IOException.class);
      assertThatThrownBy(() -> handshake(rs, client, otherCa.truststore())).as("the client does not trust the server")
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void tlsAndPlaintextShareOnePort() throws Exception {
    try (StandaloneServer s = start(serverTls(true, "NONE"))) {
      roundTrip(clientConf(s, false, null), "plain_client");
      roundTrip(clientConf(s, true, null), "tls_client");
    }
  }

  @Test
  void certificatesAreReloadedWithoutARestart() throws Exception {
    Path live = pkiDir.resolve("live-server.p12");
    Files.copy(server, live, StandardCopyOption.REPLACE_EXISTING);
    Path renewed = ca.keystore("renewed");
    Map<String, String> settings = new java.util.HashMap<>(serverTls(true, "WANT"));
    settings.put(SecurityKeys.KEYSTORE_LOCATION.name(), live.toString());
    settings.put(SecurityKeys.CERT_RELOAD.name(), "true");
    settings.put(SecurityKeys.FILE_POLL_INTERVAL.name(), "200");
    try (StandaloneServer s = start(settings)) {
      InetSocketAddress rs = s.regionServerAddress();
      assertThat(handshake(rs, client, ca.truststore())).isEqualTo("CN=server,O=basalt-test");
      Path tmp = pkiDir.resolve("live-server.p12.tmp");
      Files.copy(renewed, tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, live, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (!handshake(rs, client, ca.truststore()).equals("CN=renewed,O=basalt-test")) {
        assertThat(System.nanoTime()).as("the renewed certificate is served").isLessThan(deadline);
        Thread.sleep(100);
      }
      roundTrip(clientConf(s, true, client), "after_reload");
    }
  }

  @Test
  void statusPagesAndMetricsOverHttps() throws Exception {
    try (StandaloneServer s = start(Map.of(SecurityKeys.HTTPS_STATUS.name(), "true",
        SecurityKeys.KEYSTORE_LOCATION.name(), server.toString(), SecurityKeys.KEYSTORE_PASSWORD.name(), TestPki.PASSWORD));
         StatusServer status = StatusServer.standalone(s.masterNode(), s.regionServerNode(), "127.0.0.1", 0)) {
      int port = status.address().getPort();
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(load(ca.truststore()));
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      HttpsURLConnection https = (HttpsURLConnection) new URL("https://127.0.0.1:" + port + "/metrics").openConnection();
      https.setSSLSocketFactory(context.getSocketFactory());
      https.setConnectTimeout(5_000);
      https.setReadTimeout(5_000);
      assertThat(https.getResponseCode()).isEqualTo(200);
      try (InputStream in = https.getInputStream()) {
        assertThat(new String(in.readAllBytes())).contains("# TYPE");
      }
      HttpURLConnection plain = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/metrics").openConnection();
      plain.setConnectTimeout(5_000);
      plain.setReadTimeout(5_000);
      assertThatThrownBy(plain::getResponseCode).as("plain HTTP gets no page").isInstanceOf(IOException.class);
    }
  }

  @Test
  void protectionThatCannotBeHonouredStopsTheServer() throws Exception {
    Map<String, String> good = serverTls(false, "NEED");
    assertRefused(with(good, SecurityKeys.KEYSTORE_LOCATION.name(), pkiDir.resolve("missing.p12").toString()),
        "does not exist");
    assertRefused(with(good, SecurityKeys.KEYSTORE_PASSWORD.name(), "wrong"), "wrong password");
    assertRefused(with(good, SecurityKeys.KEYSTORE_LOCATION.name(), ""), "hbase.rpc.tls.keystore.location is not set");
    assertRefused(with(good, SecurityKeys.CRL.name(), "true"), "not supported");
    assertRefused(with(good, SecurityKeys.ENABLED_PROTOCOLS.name(), "TLSv0.9"), "TLS settings cannot be used");
    assertRefused(Map.of(SecurityKeys.HTTPS_STATUS.name(), "true"), "hbase.rpc.tls.keystore.location is not set");
  }

  private void assertRefused(Map<String, String> settings, String why) {
    assertThatThrownBy(() -> start(settings).close()).isInstanceOf(IOException.class).hasMessageContaining(why);
  }

  private static Map<String, String> with(Map<String, String> base, String key, String value) {
    Map<String, String> m = new java.util.HashMap<>(base);
    m.put(key, value);
    return m;
  }

  /** A raw TLS handshake (TLSv1.2, as HBase's default) with the server; the subject of its certificate. */
  private static String handshake(InetSocketAddress address, Path keystore, Path truststore) throws Exception {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(load(keystore), TestPki.PASSWORD.toCharArray());
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(load(truststore));
    SSLContext context = SSLContext.getInstance("TLSv1.2");
    context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(address.getAddress(),
        address.getPort())) {
      socket.setSoTimeout(5_000);
      socket.startHandshake();
      // A refused client certificate may only show once the server's verdict arrives: send the preamble and
      // read; a server that accepted waits for more (timeout), one that refused has closed (exception or EOF).
      socket.getOutputStream().write(new byte[] {'H', 'B', 'a', 's', 0, 0x50});
      socket.getOutputStream().flush();
      socket.setSoTimeout(500);
      try {
        if (socket.getInputStream().read() < 0) {
          throw new IOException("the server closed the connection");
        }
      } catch (java.net.SocketTimeoutException stillOpen) {
        // accepted
      }
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
    }
  }

  private static KeyStore load(Path file) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      ks.load(in, TestPki.PASSWORD.toCharArray());
    }
    return ks;
  }
}
