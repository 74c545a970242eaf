package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.gateway.rest.RestGateway;
import io.basalt.gateway.thrift.ThriftGateway;
import io.basalt.gateway.thrift.generated.Hbase;
import io.basalt.gateway.thrift.generated.IOError;
import io.basalt.gateway.thrift.generated.TRowResult;
import io.basalt.server.config.BasaltConfig;
import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.security.sasl.Sasl;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.protobuf.generated.AuthenticationProtos;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.provider.SaslClientAuthenticationProviders;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSSLTransportFactory;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.Oid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Thrift and REST gateways in front of a cluster with TLS-only RPC, Kerberos and ACLs (standalone in this
 * JVM, a real KDC from Kerby): each gateway logs in from its own keytab and reaches the cluster over TLS; REST
 * over HTTPS with SPNEGO, Thrift over TLS with SASL GSSAPI; the cluster's ACLs apply to the end user (alice may
 * read and write the table, bob may not), a REST {@code doAs} is allowed or refused by the proxy-user rules,
 * unauthenticated requests and a client that does not trust the gateway's certificate are refused, settings
 * that cannot be honoured stop a gateway.
 */
@Timeout(180)
class GatewaySecurityTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final TableName TABLE = TableName.valueOf("gw");
  private static final String REALM = TestKdc.REALM;

  @TempDir static Path dir;
  static TestKdc kdc;
  static TestPki pki;
  static String host;
  static Path keytab;
  static StandaloneServer cluster;
  static Path gatewayKeystore;

  @BeforeAll
  static void start() throws Exception {
    Path kdcDir = Files.createDirectories(dir.resolve("kdc"));
    kdc = TestKdc.start(kdcDir);
    host = InetAddress.getByName("127.0.0.1").getCanonicalHostName().toLowerCase(Locale.ROOT);
    // Kerby exports every principal made so far into a keytab: the last one holds them all.
    keytab = kdc.keytab("all.keytab", "hbase/" + host, "rest/" + host, "thrift/" + host, "HTTP/" + host, "alice",
        "bob", "carol", "svc", "admin");
    pki = TestPki.create(Files.createDirectories(dir.resolve("pki")), "gw-ca");
    gatewayKeystore = pki.keystore("gateway");
    UserGroupInformation.setConfiguration(clientConf());
    SaslClientAuthenticationProviders.reset();

    BasaltConfig defaults = StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0).withInfoPort(-1)
        .settings();
    Map<String, String> s = new HashMap<>(defaults.rawValues());
    s.put("hbase.security.authentication", "kerberos");
    s.put("hbase.regionserver.kerberos.principal", "hbase/_HOST@" + REALM);
    s.put("hbase.regionserver.keytab.file", keytab.toString());
    s.put("hbase.security.authorization", "true");
    s.put("hbase.superuser", "admin");
    s.put("hbase.server.netty.tls.enabled", "true");
    s.put("hbase.server.netty.tls.supportplaintext", "false");
    s.put("hbase.server.netty.tls.client.auth.mode", "NONE");
    s.put("hbase.rpc.tls.keystore.location", pki.keystore("server").toString());
    s.put("hbase.rpc.tls.keystore.password", TestPki.PASSWORD);
    s.put("hbase.rpc.tls.truststore.location", pki.truststore().toString());
    s.put("hbase.rpc.tls.truststore.password", TestPki.PASSWORD);
    // The gateways may act for alice and bob, from this machine; nobody may act for carol.
    s.put("hadoop.proxyuser.rest.users", "alice,bob");
    s.put("hadoop.proxyuser.rest.hosts", "127.0.0.1");
    s.put("hadoop.proxyuser.thrift.users", "alice,bob");
    s.put("hadoop.proxyuser.thrift.hosts", "*");
    cluster = new StandaloneServer(new StandaloneConfig(BasaltConfig.of(s)));

    UserGroupInformation admin = login("admin");
    admin.doAs((PrivilegedExceptionAction<Void>) () -> {
      Configuration conf = clusterClientConf();
      try (Connection c = ConnectionFactory.createConnection(conf); Admin a = c.getAdmin()) {
        a.createTable(TableDescriptorBuilder.newBuilder(TABLE).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
        try (Table t = c.getTable(TABLE)) {
          t.put(new Put(Bytes.toBytes("row1")).addColumn(F, Q, Bytes.toBytes("v1")));
        }
        try {
          AccessControlClient.grant(c, TABLE, "alice", null, null, Permission.Action.READ, Permission.Action.WRITE);
        } catch (Throwable e) {
          throw new IOException(e);
        }
      }
      return null;
    });
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    UserGroupInformation.setConfiguration(new Configuration());
    SaslClientAuthenticationProviders.reset();
    if (kdc != null) {
      kdc.close();
    }
  }

  private static Configuration clientConf() {
    Configuration conf = HBaseConfiguration.create();
    conf.setInt("hbase.client.retries.number", 2);
    conf.setInt("hbase.client.pause", 100);
    conf.setInt("hbase.rpc.timeout", 10_000);
    conf.setInt("hbase.client.operation.timeout", 20_000);
    conf.setInt("hbase.client.meta.operation.timeout", 20_000);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    conf.set("hbase.master.kerberos.principal", "hbase/_HOST@" + REALM);
    conf.set("hbase.regionserver.kerberos.principal", "hbase/_HOST@" + REALM);
    conf.set("hadoop.security.auth_to_local", "RULE:[1:$1]\nRULE:[2:$1]\nDEFAULT");
    return conf;
  }

  /** An HBase client of the cluster: Kerberos, TLS with the test CA. */
  private static Configuration clusterClientConf() throws Exception {
    Configuration conf = clientConf();
    conf.set("hbase.zookeeper.quorum", cluster.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", cluster.zookeeperPort());
    conf.setBoolean("hbase.client.netty.tls.enabled", true);
    conf.set("hbase.rpc.tls.truststore.location", pki.truststore().toString());
    conf.set("hbase.rpc.tls.truststore.password", TestPki.PASSWORD);
    return conf;
  }

  private static UserGroupInformation login(String user) throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(user + "@" + REALM, keytab.toString());
  }

  // ---- proxy users at the cluster

  @SuppressWarnings("deprecation")
  private static String[] whoAmIAs(UserGroupInformation user) throws Exception {
    return user.doAs((PrivilegedExceptionAction<String[]>) () -> {
      try (Connection c = ConnectionFactory.createConnection(clusterClientConf()); Table t = c.getTable(TABLE)) {
        t.get(new org.apache.hadoop.hbase.client.Get(Bytes.toBytes("row1")));
        AuthenticationProtos.WhoAmIResponse who = AuthenticationProtos.AuthenticationService
            .newBlockingStub(t.coprocessorService(Bytes.toBytes("row1")))
            .whoAmI(null, AuthenticationProtos.WhoAmIRequest.getDefaultInstance());
        return new String[] {who.getUsername(), who.getAuthMethod()};
      }
    });
  }

  @Test
  void theClusterAdmitsProxyUsersByItsRules() throws Exception {
    UserGroupInformation rest = UserGroupInformation.loginUserFromKeytabAndReturnUGI("rest/" + host + "@" + REALM,
        keytab.toString());
    assertThat(whoAmIAs(UserGroupInformation.createProxyUser("alice", rest))).containsExactly("alice", "PROXY");
    // bob may be impersonated, but the ACLs are bob's: he reads nothing.
    assertThatThrownBy(() -> whoAmIAs(UserGroupInformation.createProxyUser("bob", rest)))
        .hasStackTraceContaining("Insufficient permissions");
    // No rule lets rest act for carol, nor svc (no rules at all) for alice: the connection is refused.
    assertThatThrownBy(() -> whoAmIAs(UserGroupInformation.createProxyUser("carol", rest)))
        .hasStackTraceContaining("ConnectionClosedException");
    assertThatThrownBy(() -> whoAmIAs(UserGroupInformation.createProxyUser("alice", login("svc"))))
        .hasStackTraceContaining("ConnectionClosedException");
    assertThat(whoAmIAs(login("alice"))).containsExactly("alice@" + REALM, "KERBEROS");
  }

  // ---- REST

  private static Configuration restConf() throws Exception {
    Configuration conf = clusterClientConf();
    conf.set("hbase.rest.host", "127.0.0.1");
    conf.setInt("hbase.rest.port", 0);
    conf.setInt("hbase.rest.info.port", -1);
    conf.set("hbase.rest.kerberos.principal", "rest/_HOST@" + REALM);
    conf.set("hbase.rest.keytab.file", keytab.toString());
    conf.set("hbase.rest.authentication.type", "kerberos");
    conf.set("hbase.rest.authentication.kerberos.principal", "HTTP/_HOST@" + REALM);
    conf.set("hbase.rest.authentication.kerberos.keytab", keytab.toString());
    conf.setBoolean("hbase.rest.support.proxyuser", true);
    conf.set("hadoop.proxyuser.svc.users", "alice");
    conf.set("hadoop.proxyuser.svc.hosts", "*");
    conf.setBoolean("hbase.rest.ssl.enabled", true);
    conf.set("hbase.rest.ssl.keystore.store", gatewayKeystore.toString());
    conf.set("hbase.rest.ssl.keystore.password", TestPki.PASSWORD);
    return conf;
  }

  private static SSLContext trusting(Path truststore) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(truststore)) {
      ks.load(in, TestPki.PASSWORD.toCharArray());
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return ctx;
  }

  /** A SPNEGO token for the gateway's HTTP service, made with {@code user}'s ticket. */
  private static String negotiate(UserGroupInformation user) throws Exception {
    return user.doAs((PrivilegedExceptionAction<String>) () -> {
      GSSManager m = GSSManager.getInstance();
      GSSContext ctx = m.createContext(m.createName("HTTP@" + host, GSSName.NT_HOSTBASED_SERVICE),
          new Oid("1.3.6.1.5.5.2"), null, GSSContext.DEFAULT_LIFETIME);
      try {
        byte[] token = ctx.initSecContext(new byte[0], 0, 0);
        return "Negotiate " + Base64.getEncoder().encodeToString(token);
      } finally {
        ctx.dispose();
      }
    });
  }

  private static HttpResponse<String> call(HttpClient http, String method, String url, String auth, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .header("Accept", "application/json").header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (auth != null) {
      b.header("Authorization", auth);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String cellJson(String row, String value) {
    Base64.Encoder b64 = Base64.getEncoder();
    return "{\"Row\":[{\"key\":\"" + b64.encodeToString(row.getBytes(StandardCharsets.UTF_8)) + "\",\"Cell\":[{\"column\":\""
        + b64.encodeToString("f:q".getBytes(StandardCharsets.UTF_8)) + "\",\"$\":\""
        + b64.encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "\"}]}]}";
  }

  @Test
  void restOverHttpsWithSpnegoActsForTheEndUser() throws Exception {
    try (RestGateway gw = RestGateway.start(restConf())) {
      HttpClient http = HttpClient.newBuilder().sslContext(trusting(pki.truststore()))
          .connectTimeout(Duration.ofSeconds(10)).build();
      String base = "https://localhost:" + gw.port() + "/gw/";
      UserGroupInformation alice = login("alice");
      UserGroupInformation bob = login("bob");

      HttpResponse<String> anonymous = call(http, "GET", base + "row1/f:q", null, null);
      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValue("Negotiate");
      assertThat(call(http, "GET", base + "row1/f:q", "Negotiate AAAAAAAA", null).statusCode()).isEqualTo(403);

      HttpResponse<String> aliceRead = call(http, "GET", base + "row1/f:q", negotiate(alice), null);
      assertThat(aliceRead.statusCode()).as(aliceRead.body()).isEqualTo(200);
      assertThat(aliceRead.body()).contains(Base64.getEncoder().encodeToString(Bytes.toBytes("v1")));
      assertThat(call(http, "PUT", base + "row2/f:q", negotiate(alice), cellJson("row2", "by-alice")).statusCode())
          .isEqualTo(200);

      // bob is authenticated and the gateway may act for him, but the cluster's ACLs give him nothing.
      HttpResponse<String> bobRead = call(http, "GET", base + "row1/f:q", negotiate(bob), null);
      assertThat(bobRead.statusCode()).as(bobRead.body()).isEqualTo(403);
      assertThat(bobRead.body()).contains("Insufficient permissions");
      assertThat(call(http, "PUT", base + "row3/f:q", negotiate(bob), cellJson("row3", "by-bob")).statusCode())
          .isEqualTo(403);

      // carol: the cluster does not let the gateway act for her. It refuses the connection as HBase's server does
      // (AccessDeniedException with call id -1, then close), which the HBase client only sees as a closed
      // connection: it retries, gives up, and the gateway answers 503 as for an unreachable cluster.
      long carolStart = System.nanoTime();
      HttpResponse<String> carol = call(http, "GET", base + "row1/f:q", negotiate(login("carol")), null);
      assertThat(carol.statusCode()).as(carol.body()).isEqualTo(503);
      assertThat(carol.body()).contains("ConnectionClosedException");
      System.out.printf("carol refused in %d ms%n", (System.nanoTime() - carolStart) / 1_000_000);
      assertThat(carol.body()).doesNotContain(Base64.getEncoder().encodeToString(Bytes.toBytes("v1")));

      // svc may act for alice (gateway rule), not for bob; alice may act for nobody.
      UserGroupInformation svc = login("svc");
      HttpResponse<String> svcAsAlice = call(http, "GET", base + "row1/f:q?doAs=alice", negotiate(svc), null);
      assertThat(svcAsAlice.statusCode()).as(svcAsAlice.body()).isEqualTo(200);
      HttpResponse<String> svcAsBob = call(http, "GET", base + "row1/f:q?doAs=bob", negotiate(svc), null);
      assertThat(svcAsBob.statusCode()).isEqualTo(403);
      assertThat(svcAsBob.body()).contains("User: svc is not allowed to impersonate bob");
      assertThat(call(http, "GET", base + "row1/f:q?doAs=admin", negotiate(alice), null).statusCode()).isEqualTo(403);

      // Plain HTTP to the HTTPS port, and a client that does not trust the gateway's certificate, get nothing.
      HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      assertThatThrownBy(() -> call(plain, "GET", "http://localhost:" + gw.port() + "/gw/row1/f:q", negotiate(alice),
          null)).isInstanceOf(IOException.class);
      TestPki other = TestPki.create(Files.createDirectories(dir.resolve("other-ca")), "other-ca");
      HttpClient distrustful = HttpClient.newBuilder().sslContext(trusting(other.truststore())).build();
      assertThatThrownBy(() -> call(distrustful, "GET", base + "row1/f:q", negotiate(alice), null))
          .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
    }
  }

  @Test
  void settingsThatCannotBeHonouredStopTheGateways() throws Exception {
    Configuration missing = restConf();
    missing.set("hbase.rest.ssl.keystore.store", dir.resolve("nope.p12").toString());
    assertThatThrownBy(() -> RestGateway.start(missing)).isInstanceOf(IOException.class)
        .hasMessageContaining("hbase.rest.ssl.keystore.store").hasMessageContaining("does not exist");
    Configuration wrongPassword = restConf();
    wrongPassword.set("hbase.rest.ssl.keystore.password", "wrong");
    assertThatThrownBy(() -> RestGateway.start(wrongPassword)).isInstanceOf(IOException.class)
        .hasMessageContaining("wrong password");
    Configuration noKeytab = restConf();
    noKeytab.unset("hbase.rest.keytab.file");
    assertThatThrownBy(() -> RestGateway.start(noKeytab)).hasMessageContaining("hbase.rest.keytab.file is not set");
    Configuration framedSasl = thriftConf();
    framedSasl.setBoolean("hbase.regionserver.thrift.framed", true);
    assertThatThrownBy(() -> ThriftGateway.start(framedSasl)).hasMessageContaining("framed transport");
    Configuration badQop = thriftConf();
    badQop.set("hbase.thrift.security.qop", "secret");
    assertThatThrownBy(() -> ThriftGateway.start(badQop)).hasMessageContaining("Invalid hbase.thrift.security.qop");
  }

  // ---- Thrift

  private static Configuration thriftConf() throws Exception {
    Configuration conf = clusterClientConf();
    conf.set("hbase.regionserver.thrift.ipaddress", "127.0.0.1");
    conf.setInt("hbase.regionserver.thrift.port", 0);
    conf.setInt("hbase.thrift.info.port", -1);
    conf.setInt("hbase.thrift.minWorkerThreads", 2);
    conf.set("hbase.thrift.kerberos.principal", "thrift/_HOST@" + REALM);
    conf.set("hbase.thrift.keytab.file", keytab.toString());
    conf.set("hbase.thrift.security.qop", "auth-conf");
    conf.setBoolean("hbase.thrift.ssl.enabled", true);
    conf.set("hbase.thrift.ssl.keystore.store", gatewayKeystore.toString());
    conf.set("hbase.thrift.ssl.keystore.password", TestPki.PASSWORD);
    return conf;
  }

  private static TTransport tls(int port, Path truststore) throws Exception {
    TSSLTransportFactory.TSSLTransportParameters params = new TSSLTransportFactory.TSSLTransportParameters();
    params.setTrustStore(truststore.toString(), TestPki.PASSWORD, null, "PKCS12");
    return TSSLTransportFactory.getClientSocket("127.0.0.1", port, 20_000, params);
  }

  /** Reads row1 through a SASL (GSSAPI, auth-conf) connection over TLS made with {@code user}'s ticket. */
  private static String thriftRead(UserGroupInformation user, int port) throws Exception {
    try {
      return thriftReadAs(user, port);
    } catch (java.lang.reflect.UndeclaredThrowableException e) {
      throw (Exception) e.getCause(); // UGI.doAs wraps Thrift's checked exceptions
    }
  }

  private static String thriftReadAs(UserGroupInformation user, int port) throws Exception {
    return user.doAs((PrivilegedExceptionAction<String>) () -> {
      TTransport sasl = new TSaslClientTransport("GSSAPI", null, "thrift", host,
          Map.of(Sasl.QOP, "auth-conf", Sasl.SERVER_AUTH, "true"), null, tls(port, pki.truststore()));
      sasl.open();
      try {
        Hbase.Client client = new Hbase.Client(new TBinaryProtocol(sasl));
        List<TRowResult> rows = client.getRow(ByteBuffer.wrap(Bytes.toBytes("gw")),
            ByteBuffer.wrap(Bytes.toBytes("row1")), Map.of());
        return rows.isEmpty() ? null : Bytes.toString(rows.get(0).getColumns()
            .get(ByteBuffer.wrap(Bytes.toBytes("f:q"))).getValue());
      } finally {
        sasl.close();
      }
    });
  }

  @Test
  void thriftOverTlsWithSaslActsForTheEndUser() throws Exception {
    try (ThriftGateway gw = ThriftGateway.start(thriftConf())) {
      assertThat(thriftRead(login("alice"), gw.port())).isEqualTo("v1");
      assertThatThrownBy(() -> thriftRead(login("bob"), gw.port())).isInstanceOf(IOError.class)
          .hasMessageContaining("Insufficient permissions");

      // Without SASL (TLS only) the gateway does not answer; without TLS neither; nor to a distrustful client.
      TTransport noSasl = tls(gw.port(), pki.truststore());
      assertThatThrownBy(() -> new Hbase.Client(new TBinaryProtocol(noSasl)).getTableNames())
          .isInstanceOf(org.apache.thrift.TException.class);
      noSasl.close();
      TTransport plain = new TSocket("127.0.0.1", gw.port(), 20_000);
      plain.open();
      assertThatThrownBy(() -> new Hbase.Client(new TBinaryProtocol(plain)).getTableNames())
          .isInstanceOf(org.apache.thrift.TException.class);
      plain.close();
      TestPki other = TestPki.create(Files.createDirectories(dir.resolve("other-thrift-ca")), "other-thrift-ca");
      assertThatThrownBy(() -> login("alice").doAs((PrivilegedExceptionAction<Object>) () -> {
        TTransport t = new TSaslClientTransport("GSSAPI", null, "thrift", host, Map.of(Sasl.QOP, "auth-conf"), null,
            tls(gw.port(), other.truststore()));
        t.open();
        return null;
      })).isInstanceOf(Exception.class);
    }
  }

  // ---- Thrift, HTTP mode

  /** One getRow of row1 as a Thrift-over-HTTP POST: the status, and the value or the IOError's message. */
  private static String[] thriftHttpRead(HttpClient http, int port, String auth, String doAs) throws Exception {
    org.apache.thrift.transport.TMemoryBuffer request = new org.apache.thrift.transport.TMemoryBuffer(256);
    org.apache.thrift.transport.TMemoryInputTransport response = new org.apache.thrift.transport.TMemoryInputTransport();
    Hbase.Client client = new Hbase.Client(new TBinaryProtocol(response), new TBinaryProtocol(request));
    client.send_getRow(ByteBuffer.wrap(Bytes.toBytes("gw")), ByteBuffer.wrap(Bytes.toBytes("row1")), Map.of());
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/"))
        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/x-thrift")
        .POST(HttpRequest.BodyPublishers.ofByteArray(java.util.Arrays.copyOf(request.getArray(), request.length())));
    if (auth != null) {
      b.header("Authorization", auth);
    }
    if (doAs != null) {
      b.header("doAs", doAs);
    }
    HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      return new String[] {Integer.toString(r.statusCode()), new String(r.body(), StandardCharsets.UTF_8)};
    }
    response.reset(r.body());
    try {
      List<TRowResult> rows = client.recv_getRow();
      return new String[] {"200", Bytes.toString(rows.get(0).getColumns().get(ByteBuffer.wrap(Bytes.toBytes("f:q")))
          .getValue())};
    } catch (IOError e) {
      return new String[] {"200", e.getMessage()};
    }
  }

  @Test
  void thriftHttpModeOverHttpsWithSpnegoAndDoAs() throws Exception {
    Configuration conf = thriftConf();
    conf.unset("hbase.thrift.security.qop");
    conf.setBoolean("hbase.regionserver.thrift.http", true);
    conf.set("hbase.thrift.spnego.principal", "HTTP/_HOST@" + REALM);
    conf.set("hbase.thrift.spnego.keytab.file", keytab.toString());
    conf.setBoolean("hbase.thrift.support.proxyuser", true);
    conf.set("hadoop.proxyuser.svc.users", "alice");
    conf.set("hadoop.proxyuser.svc.hosts", "*");
    try (ThriftGateway gw = ThriftGateway.start(conf)) {
      HttpClient http = HttpClient.newBuilder().sslContext(trusting(pki.truststore())).build();
      assertThat(thriftHttpRead(http, gw.port(), null, null)[0]).isEqualTo("401");
      assertThat(thriftHttpRead(http, gw.port(), negotiate(login("alice")), null)).containsExactly("200", "v1");
      assertThat(thriftHttpRead(http, gw.port(), negotiate(login("bob")), null)[1])
          .contains("Insufficient permissions");
      UserGroupInformation svc = login("svc");
      assertThat(thriftHttpRead(http, gw.port(), negotiate(svc), "alice")).containsExactly("200", "v1");
      String[] refused = thriftHttpRead(http, gw.port(), negotiate(svc), "bob");
      assertThat(refused[0]).isEqualTo("403");
      assertThat(refused[1]).contains("User: svc is not allowed to impersonate bob");
    }
  }
}
