package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.KnownKeys;
import io.basalt.server.config.SecurityKeys;
import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
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
import org.apache.hadoop.hbase.security.provider.SaslClientAuthenticationProviders;
import org.apache.hadoop.hbase.security.token.AuthenticationTokenIdentifier;
import org.apache.hadoop.hbase.security.token.ClientTokenUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kerberos and token authentication through the unmodified HBase 2.6 client against a real KDC the test
 * starts (Kerby): a client logged in from its keytab reads and writes (master and region server), WhoAmI
 * answers its principal; a client without a ticket and a SIMPLE client are refused; a token obtained with
 * Kerberos authenticates on its own; Kerberos over TLS; SASL wrapping (privacy); garbage SASL frames get
 * an error and leave the server serving; settings that cannot be honoured stop the server.
 */
@Timeout(300)
class KerberosTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final String SERVER_PRINCIPAL = "hbase/_HOST@" + TestKdc.REALM;
  private static final String ALICE = "alice@" + TestKdc.REALM;

  @TempDir static Path kdcDir;
  static TestKdc kdc;
  static Path serverKeytab;
  static Path aliceKeytab;
  static Path otherKeytab;
  static Path adminKeytab;

  @TempDir Path data;

  @BeforeAll
  static void startKdc() throws Exception {
    kdc = TestKdc.start(kdcDir);
    // Server and client both put the canonical name of the server's address in _HOST.
    String host = java.net.InetAddress.getByName("127.0.0.1").getCanonicalHostName().toLowerCase(java.util.Locale.ROOT);
    // Kerby exports every principal made so far into each keytab: the one without hbase/ comes first.
    otherKeytab = kdc.keytab("other.keytab", "other/" + host);
    serverKeytab = kdc.keytab("hbase.keytab", "hbase/" + host);
    aliceKeytab = kdc.keytab("alice.keytab", "alice");
    adminKeytab = kdc.keytab("admin.keytab", "admin");
    UserGroupInformation.setConfiguration(clientConf(null, "authentication"));
    // The client's SASL provider selector is a JVM-wide singleton configured by the first connection: after an
    // earlier test class's plain clients it would pick SIMPLE for these Kerberos ones.
    SaslClientAuthenticationProviders.reset();
  }

  @AfterAll
  static void stopKdc() throws IOException {
    UserGroupInformation.setConfiguration(new Configuration()); // simple again for the test classes after this one
    SaslClientAuthenticationProviders.reset();
    if (kdc != null) {
      kdc.close();
    }
  }

  private StandaloneServer start(Map<String, String> settings) throws Exception {
    BasaltConfig c = StandaloneConfig.defaults(data).withPorts(0, 0, 0).withInfoPort(-1).settings();
    for (var e : settings.entrySet()) {
      c = c.with(KnownKeys.byName(e.getKey()).orElseThrow(), e.getValue());
    }
    return new StandaloneServer(new StandaloneConfig(c));
  }

  private static Map<String, String> kerberos(String protection) {
    Map<String, String> m = new HashMap<>();
    m.put(SecurityKeys.AUTHENTICATION.name(), "kerberos");
    m.put(SecurityKeys.REGIONSERVER_PRINCIPAL.name(), SERVER_PRINCIPAL);
    m.put(SecurityKeys.REGIONSERVER_KEYTAB.name(), serverKeytab.toString());
    m.put(SecurityKeys.RPC_PROTECTION.name(), protection);
    return m;
  }

  /** The unmodified client's settings, HBase's keys; {@code s} null for UGI's own configuration. */
  private static Configuration clientConf(StandaloneServer s, String protection) {
    Configuration conf = HBaseConfiguration.create();
    if (s != null) {
      conf.set("hbase.zookeeper.quorum", s.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", s.zookeeperPort());
    }
    conf.setInt("hbase.client.retries.number", 2);
    conf.setInt("hbase.client.pause", 100);
    conf.setInt("hbase.rpc.timeout", 10_000);
    conf.setInt("hbase.client.operation.timeout", 20_000);
    conf.setInt("hbase.client.meta.operation.timeout", 20_000);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    conf.set("hbase.master.kerberos.principal", SERVER_PRINCIPAL);
    conf.set("hbase.regionserver.kerberos.principal", SERVER_PRINCIPAL);
    conf.set("hbase.rpc.protection", protection);
    conf.set("hadoop.security.auth_to_local", "RULE:[1:$1]\nRULE:[2:$1]\nDEFAULT");
    return conf;
  }

  private static Configuration simpleConf(StandaloneServer s) {
    Configuration conf = clientConf(s, "authentication");
    conf.set("hbase.security.authentication", "simple");
    return conf;
  }

  private static UserGroupInformation alice() throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(ALICE, aliceKeytab.toString());
  }

  private static <T> T as(UserGroupInformation ugi, PrivilegedExceptionAction<T> action) throws Exception {
    return ugi.doAs(action);
  }

  /** Creates the table if needed (master), writes and reads a row (region server), asks WhoAmI of both. */
  private static String[] roundTrip(Configuration conf, String table) throws IOException {
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf(table);
      if (!admin.tableExists(name)) {
        admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
      }
      try (Table t = conn.getTable(name)) {
        t.put(new Put(Bytes.toBytes("row")).addColumn(F, Q, Bytes.toBytes(table)));
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("row"))).getValue(F, Q))).isEqualTo(table);
        AuthenticationProtos.WhoAmIResponse onRegionServer = whoAmI(t);
        AuthenticationProtos.WhoAmIResponse onMaster;
        try (Table meta = conn.getTable(TableName.META_TABLE_NAME)) {
          onMaster = whoAmI(meta);
        }
        assertThat(onRegionServer.getUsername()).isEqualTo(onMaster.getUsername());
        assertThat(onRegionServer.getAuthMethod()).isEqualTo(onMaster.getAuthMethod());
        return new String[] {onMaster.getUsername(), onMaster.getAuthMethod()};
      }
    }
  }

  @SuppressWarnings("deprecation")
  private static AuthenticationProtos.WhoAmIResponse whoAmI(Table t) throws IOException {
    try {
      return AuthenticationProtos.AuthenticationService.newBlockingStub(t.coprocessorService(HConstants.EMPTY_START_ROW))
          .whoAmI(null, AuthenticationProtos.WhoAmIRequest.getDefaultInstance());
    } catch (com.google.protobuf.ServiceException e) {
      throw new IOException(e);
    }
  }

  @Test
  void aKerberosClientReadsAndWritesAndWhoAmIAnswersItsPrincipal() throws Exception {
    try (StandaloneServer s = start(kerberos("authentication"))) {
      String[] who = as(alice(), () -> roundTrip(clientConf(s, "authentication"), "kerberos_rw"));
      assertThat(who).containsExactly(ALICE, "KERBEROS");
    }
  }

  @Test
  void theAclsCheckTheAuthenticatedPrincipal() throws Exception {
    Map<String, String> settings = kerberos("authentication");
    settings.put(SecurityKeys.AUTHORIZATION.name(), "true");
    settings.put(SecurityKeys.SUPERUSERS.name(), "admin");
    try (StandaloneServer s = start(settings)) {
      Configuration conf = clientConf(s, "authentication");
      TableName name = TableName.valueOf("kerberos_acl");
      UserGroupInformation admin = UserGroupInformation.loginUserFromKeytabAndReturnUGI("admin@" + TestKdc.REALM,
          adminKeytab.toString());
      UserGroupInformation alice = alice();
      assertThatThrownBy(() -> as(alice, () -> {
        try (Connection conn = ConnectionFactory.createConnection(conf); Admin a = conn.getAdmin()) {
          a.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build());
        }
        return null;
      })).hasStackTraceContaining("AccessDeniedException").hasStackTraceContaining("alice");
      as(admin, () -> {
        try (Connection conn = ConnectionFactory.createConnection(conf); Admin a = conn.getAdmin();
            Table t = conn.getTable(name)) {
          a.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build());
          t.put(new Put(Bytes.toBytes("row")).addColumn(F, Q, Bytes.toBytes("v")));
          a.grant(new org.apache.hadoop.hbase.security.access.UserPermission("alice",
              org.apache.hadoop.hbase.security.access.Permission.newBuilder(name)
                  .withActions(org.apache.hadoop.hbase.security.access.Permission.Action.READ).build()), false);
        }
        return null;
      });
      as(alice, () -> {
        try (Connection conn = ConnectionFactory.createConnection(conf); Table t = conn.getTable(name)) {
          assertThat(readWithin(t, 5_000)).as("a grant reaches every server within a second").isEqualTo("v");
          assertThatThrownBy(() -> t.put(new Put(Bytes.toBytes("row")).addColumn(F, Q, Bytes.toBytes("w"))))
              .hasStackTraceContaining("AccessDeniedException").hasStackTraceContaining("alice");
          assertThat(whoAmI(t).getUsername()).isEqualTo(ALICE);
        }
        return null;
      });
    }
  }

  /** The row's value once the caller may read it, retrying refusals for up to {@code millis}. */
  private static String readWithin(Table t, long millis) throws Exception {
    long deadline = System.currentTimeMillis() + millis;
    while (true) {
      try {
        return Bytes.toString(t.get(new Get(Bytes.toBytes("row"))).getValue(F, Q));
      } catch (IOException refused) {
        if (System.currentTimeMillis() > deadline) {
          throw refused;
        }
        Thread.sleep(100);
      }
    }
  }

  @Test
  void clientsWithoutATicketAndSimpleClientsAreRefused() throws Exception {
    try (StandaloneServer s = start(kerberos("authentication"))) {
      UserGroupInformation mallory = UserGroupInformation.createRemoteUser(ALICE); // claims alice, has no ticket
      assertThatThrownBy(() -> as(mallory, () -> roundTrip(clientConf(s, "authentication"), "no_ticket")))
          .isInstanceOf(Exception.class);
      assertThatThrownBy(() -> as(mallory, () -> roundTrip(simpleConf(s), "simple_claims_alice")))
          .isInstanceOf(Exception.class);
      // What the SIMPLE client got, on both ports: HBase's refusal (call id -1), then the connection closed.
      for (InetSocketAddress port : new InetSocketAddress[] {s.masterAddress(), s.regionServerAddress()}) {
        assertThat(simpleConnectionRefusal(port)).isEqualTo("org.apache.hadoop.hbase.security.AccessDeniedException");
      }
      // The server is unharmed: an authenticated client still works.
      assertThat(as(alice(), () -> roundTrip(clientConf(s, "authentication"), "after_refusals"))[1]).isEqualTo("KERBEROS");
    }
  }

  /**
   * Opens a SIMPLE connection; returns the exception class of the server's answer. The server refuses on the
   * preamble's auth byte, as HBase does, and closes: a connection header written after it would race the close
   * (a broken pipe, or a reset that loses the refusal), so only the preamble is sent.
   */
  private static String simpleConnectionRefusal(InetSocketAddress port) throws IOException {
    try (Socket socket = new Socket(port.getAddress(), port.getPort())) {
      socket.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      out.write(new byte[] {'H', 'B', 'a', 's', 0, 80});
      out.flush();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      byte[] frame = new byte[in.readInt()];
      in.readFully(frame);
      RPCProtos.ResponseHeader response = RPCProtos.ResponseHeader.parseDelimitedFrom(new java.io.ByteArrayInputStream(frame));
      assertThat(response.getCallId()).isEqualTo(-1);
      assertThat(in.read()).as("closed after the refusal").isEqualTo(-1);
      return response.getException().getExceptionClassName();
    }
  }

  @Test
  void theAnonymousFallbackLetsSimpleClientsInWithNoRights() throws Exception {
    Map<String, String> settings = kerberos("authentication");
    settings.put(SecurityKeys.ANONYMOUS_FALLBACK.name(), "true");
    try (StandaloneServer s = start(settings)) {
      as(alice(), () -> roundTrip(clientConf(s, "authentication"), "anonymous_fallback"));
      UserGroupInformation mallory = UserGroupInformation.createRemoteUser(ALICE);
      String[] who = as(mallory, () -> {
        try (Connection conn = ConnectionFactory.createConnection(simpleConf(s));
            Table meta = conn.getTable(TableName.META_TABLE_NAME)) {
          AuthenticationProtos.WhoAmIResponse r = whoAmI(meta);
          return new String[] {r.getUsername(), r.getAuthMethod()};
        }
      });
      assertThat(who).as("the claimed name is not taken").containsExactly("", "ANONYMOUS");
      assertThatThrownBy(() -> as(mallory, () -> {
        try (Connection conn = ConnectionFactory.createConnection(simpleConf(s));
            Table t = conn.getTable(TableName.valueOf("anonymous_fallback"))) {
          return t.get(new Get(Bytes.toBytes("row")));
        }
      })).hasStackTraceContaining("AccessDeniedException").hasStackTraceContaining("anonymous caller");
    }
  }

  @Test
  void aTokenObtainedWithKerberosAuthenticatesOnItsOwn() throws Exception {
    try (StandaloneServer s = start(kerberos("authentication"))) {
      Configuration conf = clientConf(s, "authentication");
      Token<AuthenticationTokenIdentifier> token = as(alice(), () -> {
        try (Connection conn = ConnectionFactory.createConnection(conf)) {
          return ClientTokenUtil.obtainToken(conn);
        }
      });
      AuthenticationTokenIdentifier id = new AuthenticationTokenIdentifier();
      id.readFields(new DataInputStream(new java.io.ByteArrayInputStream(token.getIdentifier())));
      assertThat(id.getUsername()).isEqualTo(ALICE);
      assertThat(token.getKind().toString()).isEqualTo("HBASE_AUTH_TOKEN");

      UserGroupInformation holder = UserGroupInformation.createRemoteUser(ALICE); // no Kerberos credentials
      holder.addToken(token);
      assertThat(as(holder, () -> roundTrip(conf, "token_rw"))).containsExactly(ALICE, "TOKEN");
      assertThatThrownBy(() -> as(holder, () -> {
        try (Connection conn = ConnectionFactory.createConnection(conf)) {
          return ClientTokenUtil.obtainToken(conn);
        }
      })).as("a token does not buy another token (as HBase)").hasStackTraceContaining("Token generation only allowed");

      byte[] forged = token.getPassword().clone();
      forged[0] ^= 1;
      UserGroupInformation forger = UserGroupInformation.createRemoteUser(ALICE);
      forger.addToken(new Token<>(token.getIdentifier(), forged, token.getKind(), token.getService()));
      assertThatThrownBy(() -> as(forger, () -> roundTrip(conf, "forged_token"))).isInstanceOf(Exception.class);
    }
  }

  @Test
  void saslPrivacyWrapsEveryMessage() throws Exception {
    try (StandaloneServer s = start(kerberos("privacy"))) {
      assertThat(as(alice(), () -> roundTrip(clientConf(s, "privacy"), "private_rw"))).containsExactly(ALICE, "KERBEROS");
      assertThatThrownBy(() -> as(alice(), () -> roundTrip(clientConf(s, "authentication"), "qop_mismatch")))
          .as("no common quality of protection").isInstanceOf(Exception.class);
    }
  }

  @Test
  void kerberosOverTls() throws Exception {
    java.nio.file.Files.createDirectories(data.resolve("pki"));
    TestPki ca = TestPki.create(data.resolve("pki"), "kerberos-ca");
    Path serverStore = ca.keystore("server");
    Map<String, String> settings = kerberos("authentication");
    settings.put(SecurityKeys.SERVER_TLS.name(), "true");
    settings.put(SecurityKeys.SUPPORT_PLAINTEXT.name(), "false");
    settings.put(SecurityKeys.CLIENT_AUTH.name(), "NONE");
    settings.put(SecurityKeys.KEYSTORE_LOCATION.name(), serverStore.toString());
    settings.put(SecurityKeys.KEYSTORE_PASSWORD.name(), TestPki.PASSWORD);
    settings.put(SecurityKeys.TRUSTSTORE_LOCATION.name(), ca.truststore().toString());
    settings.put(SecurityKeys.TRUSTSTORE_PASSWORD.name(), TestPki.PASSWORD);
    try (StandaloneServer s = start(settings)) {
      Configuration conf = clientConf(s, "authentication");
      conf.setBoolean("hbase.client.netty.tls.enabled", true);
      conf.set("hbase.rpc.tls.truststore.location", ca.truststore().toString());
      conf.set("hbase.rpc.tls.truststore.password", TestPki.PASSWORD);
      assertThat(as(alice(), () -> roundTrip(conf, "kerberos_tls"))).containsExactly(ALICE, "KERBEROS");
      assertThatThrownBy(() -> as(UserGroupInformation.createRemoteUser(ALICE), () -> roundTrip(conf, "tls_no_ticket")))
          .isInstanceOf(Exception.class);
      // A token (a long-running job's credential) over TLS too.
      Token<AuthenticationTokenIdentifier> token = as(alice(), () -> {
        try (Connection conn = ConnectionFactory.createConnection(conf)) {
          return ClientTokenUtil.obtainToken(conn);
        }
      });
      UserGroupInformation holder = UserGroupInformation.createRemoteUser(ALICE);
      holder.addToken(token);
      assertThat(as(holder, () -> roundTrip(conf, "token_tls"))).containsExactly(ALICE, "TOKEN");
    }
  }

  @Test
  void aVerifiedClientCertificateNamesTheUserWhenTlsNeedsOne() throws Exception {
    java.nio.file.Files.createDirectories(data.resolve("pki"));
    TestPki ca = TestPki.create(data.resolve("pki"), "certificate-ca");
    Path serverStore = ca.keystore("server");
    Path clientStore = ca.keystore("carol");
    Map<String, String> settings = kerberos("authentication");
    settings.put(SecurityKeys.SERVER_TLS.name(), "true");
    settings.put(SecurityKeys.SUPPORT_PLAINTEXT.name(), "false");
    settings.put(SecurityKeys.CLIENT_AUTH.name(), "NEED");
    settings.put(SecurityKeys.KEYSTORE_LOCATION.name(), serverStore.toString());
    settings.put(SecurityKeys.KEYSTORE_PASSWORD.name(), TestPki.PASSWORD);
    settings.put(SecurityKeys.TRUSTSTORE_LOCATION.name(), ca.truststore().toString());
    settings.put(SecurityKeys.TRUSTSTORE_PASSWORD.name(), TestPki.PASSWORD);
    try (StandaloneServer s = start(settings)) {
      Configuration conf = simpleConf(s); // no SASL: the certificate is the credential
      conf.setBoolean("hbase.client.netty.tls.enabled", true);
      conf.set("hbase.rpc.tls.truststore.location", ca.truststore().toString());
      conf.set("hbase.rpc.tls.truststore.password", TestPki.PASSWORD);
      conf.set("hbase.rpc.tls.keystore.location", clientStore.toString());
      conf.set("hbase.rpc.tls.keystore.password", TestPki.PASSWORD);
      UserGroupInformation claimsAlice = UserGroupInformation.createRemoteUser(ALICE);
      assertThat(as(claimsAlice, () -> roundTrip(conf, "certificate_rw"))).as("the CN, not the claimed name")
          .containsExactly("carol", "CERTIFICATE");
      Token<AuthenticationTokenIdentifier> token = as(claimsAlice, () -> {
        try (Connection conn = ConnectionFactory.createConnection(conf)) {
          return ClientTokenUtil.obtainToken(conn);
        }
      });
      AuthenticationTokenIdentifier id = new AuthenticationTokenIdentifier();
      id.readFields(new DataInputStream(new java.io.ByteArrayInputStream(token.getIdentifier())));
      assertThat(id.getUsername()).as("a certificate user may obtain a token in its own name").isEqualTo("carol");
    }
  }

  @Test
  void garbageSaslFramesGetAnErrorAndTheServerKeepsServing() throws Exception {
    try (StandaloneServer s = start(kerberos("authentication"))) {
      Random random = new Random(42);
      for (InetSocketAddress port : new InetSocketAddress[] {s.masterAddress(), s.regionServerAddress()}) {
        for (int authByte : new int[] {81, 82}) {
          byte[] junk = new byte[1 + random.nextInt(300)];
          random.nextBytes(junk);
          assertSaslError(port, authByte, junk.length, junk);
          assertSaslError(port, authByte, Integer.MAX_VALUE, new byte[8]);
          assertSaslError(port, authByte, -5, new byte[0]);
        }
      }
      assertThat(as(alice(), () -> roundTrip(clientConf(s, "authentication"), "after_garbage"))[1]).isEqualTo("KERBEROS");
    }
  }

  /**
   * Sends a SASL preamble and a frame, again after every challenge (DIGEST-MD5 answers any first token with
   * its challenge, as in HBase); expects HBase's SASL error reply (status 1) within three rounds, then the close.
   */
  private static void assertSaslError(InetSocketAddress port, int authByte, int length, byte[] body) throws IOException {
    try (Socket socket = new Socket(port.getAddress(), port.getPort())) {
      socket.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      DataInputStream in = new DataInputStream(socket.getInputStream());
      out.write(new byte[] {'H', 'B', 'a', 's', 0, (byte) authByte});
      for (int round = 0; ; round++) {
        out.writeInt(length);
        out.write(body);
        out.flush();
        int status = in.readInt();
        if (status == 0) {
          assertThat(round).as("still negotiating after three garbage tokens").isLessThan(2);
          in.readFully(new byte[in.readInt()]); // a challenge
          continue;
        }
        assertThat(status).as("SASL status ERROR").isEqualTo(1);
        break;
      }
      byte[] cls = new byte[in.readInt()];
      in.readFully(cls);
      byte[] msg = new byte[in.readInt()];
      in.readFully(msg);
      assertThat(new String(cls, StandardCharsets.UTF_8)).isNotEmpty();
      assertThat(in.read()).as("closed after the error").isEqualTo(-1);
    }
  }

  @Test
  void kerberosSettingsThatCannotBeHonouredStopTheServer() {
    Map<String, String> noKeytab = kerberos("authentication");
    noKeytab.remove(SecurityKeys.REGIONSERVER_KEYTAB.name());
    assertThatThrownBy(() -> start(noKeytab)).hasStackTraceContaining("hbase.regionserver.keytab.file is not set");

    Map<String, String> wrongPrincipal = kerberos("authentication");
    wrongPrincipal.put(SecurityKeys.REGIONSERVER_KEYTAB.name(), otherKeytab.toString());
    assertThatThrownBy(() -> start(wrongPrincipal)).hasStackTraceContaining("Kerberos login of hbase/");

    Map<String, String> noHost = kerberos("authentication");
    noHost.put(SecurityKeys.REGIONSERVER_PRINCIPAL.name(), "hbase@" + TestKdc.REALM);
    assertThatThrownBy(() -> start(noHost)).hasStackTraceContaining("is not of the form service/host@REALM");

    Map<String, String> badQop = kerberos("secret-sauce");
    assertThatThrownBy(() -> start(badQop)).hasStackTraceContaining("hbase.rpc.protection");
  }

  @Test
  void launchersStopWithTheReasonWhenKerberosCannotBeHonoured() throws Exception {
    String classpath = System.getProperty("java.class.path");
    java.util.List<String> jvm = java.util.List.of("-Djava.security.krb5.conf=" + kdc.krb5conf());
    java.util.List<String> master = java.util.List.of("--zookeeper", "127.0.0.1:1", "--host", "127.0.0.1",
        "--hbase.security.authentication", "kerberos", "--hbase.master.keytab.file", serverKeytab.toString());
    assertThat(exitOf(jvm, classpath, "io.basalt.server.launch.MasterMain", master, "master-no-principal"))
        .contains("hbase.master.kerberos.principal is not set");
    java.util.List<String> regionServer = java.util.List.of("--zookeeper", "127.0.0.1:1", "--host", "127.0.0.1",
        "--data-dir", data.resolve("rs").toString(), "--hbase.security.authentication", "kerberos",
        "--hbase.regionserver.kerberos.principal", SERVER_PRINCIPAL,
        "--hbase.regionserver.keytab.file", otherKeytab.toString());
    assertThat(exitOf(jvm, classpath, "io.basalt.server.launch.RegionServerMain", regionServer, "rs-wrong-keytab"))
        .contains("Kerberos login of hbase/");
  }

  /** Runs a launcher that must stop at once with exit code 2; returns its output. */
  private String exitOf(java.util.List<String> jvm, String classpath, String main, java.util.List<String> args, String name)
      throws Exception {
    Path log = data.resolve(name + ".log");
    Process p = io.basalt.it.target.Processes.startJava(jvm, classpath, main, args, log);
    try {
      assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as(name + " stops").isTrue();
      String output = java.nio.file.Files.readString(log);
      assertThat(p.exitValue()).as(output).isEqualTo(2);
      return output;
    } finally {
      p.destroyForcibly();
    }
  }
}
