package io.basalt.server.config;

/**
 * How servers prove to each other that they belong to the cluster, and TLS on the RPC ports with HBase
 * 2.6's key names and meanings (org.apache.hadoop.hbase.io.crypto.tls.X509Util).
 */
public final class SecurityKeys {
  private SecurityKeys() {}

  public static final ConfigKey<String> CLUSTER_SECRET_FILE = ConfigKey.path("basalt.cluster.secret.file", "",
      "File holding the secret every master and region server of the cluster shares (hex, owner-readable "
          + "only); control calls, segment transfers and replication connections prove knowledge of it and "
          + "anyone else is refused. Created with a random secret if missing. Empty: ~/.basalt/cluster.secret "
          + "(so processes of one user on one machine agree with no setting); copy the file to every machine "
          + "of a multi-machine cluster. Standalone keeps its secret in memory unless this is set.");

  public static final ConfigKey<Boolean> SERVER_TLS = ConfigKey.bool("hbase.server.netty.tls.enabled", false,
      "Serve RPC over TLS (keystore and truststore from hbase.rpc.tls.*). Internal calls between servers then "
          + "use TLS too.");

  public static final ConfigKey<Boolean> SUPPORT_PLAINTEXT = ConfigKey.bool("hbase.server.netty.tls.supportplaintext",
      true, "With TLS on, also accept plaintext connections on the same port (the first bytes tell a TLS "
          + "ClientHello from HBase's preamble), for a migration. Set false to refuse plaintext.");

  public static final ConfigKey<String> CLIENT_AUTH = ConfigKey.of("hbase.server.netty.tls.client.auth.mode",
      "NONE|WANT|NEED", "NEED", SecurityKeys::clientAuth,
      "Whether TLS clients must present a certificate the truststore trusts: NEED (refused without one), WANT "
          + "(checked if presented), NONE.");

  public static final ConfigKey<Boolean> VERIFY_CLIENT_HOSTNAME = ConfigKey.bool(
      "hbase.server.netty.tls.verify.client.hostname", true,
      "Check that a client certificate names the address the client connects from (subject alternative name).");

  public static final ConfigKey<Boolean> HTTPS_STATUS = ConfigKey.bool("hbase.ssl.enabled", false,
      "Serve the status pages and /metrics over HTTPS only, with the hbase.rpc.tls keystore (HBase's key for its "
          + "web UI; HBase itself reads that keystore from ssl-server.xml). Not reloaded by certReload.");

  public static final ConfigKey<Boolean> CLIENT_TLS = ConfigKey.bool("hbase.client.netty.tls.enabled", false,
      "Connect to other servers over TLS even if this server's own port does not require it.");

  public static final ConfigKey<Boolean> VERIFY_SERVER_HOSTNAME = ConfigKey.bool(
      "hbase.client.netty.tls.verify.server.hostname", true,
      "Internal calls check that a server's certificate names the host they connect to.");

  public static final ConfigKey<String> KEYSTORE_LOCATION = ConfigKey.path("hbase.rpc.tls.keystore.location", "",
      "Keystore (JKS or PKCS12) with this server's private key and certificate chain.");

  public static final ConfigKey<String> KEYSTORE_TYPE = ConfigKey.string("hbase.rpc.tls.keystore.type", "",
      "JKS or PKCS12; empty: from the file's extension (.jks, .p12/.pfx), else PKCS12.");

  public static final ConfigKey<String> KEYSTORE_PASSWORD = ConfigKey.string("hbase.rpc.tls.keystore.password", "",
      "Password of the keystore and its key.");

  public static final ConfigKey<String> TRUSTSTORE_LOCATION = ConfigKey.path("hbase.rpc.tls.truststore.location", "",
      "Truststore (JKS or PKCS12) with the CA certificates peers' certificates must chain to; empty: the JDK's.");

  public static final ConfigKey<String> TRUSTSTORE_TYPE = ConfigKey.string("hbase.rpc.tls.truststore.type", "",
      "JKS or PKCS12; empty: from the file's extension.");

  public static final ConfigKey<String> TRUSTSTORE_PASSWORD = ConfigKey.string("hbase.rpc.tls.truststore.password",
      "", "Password of the truststore (may be empty).");

  public static final ConfigKey<String> PROTOCOL = ConfigKey.string("hbase.rpc.tls.protocol", "TLSv1.2",
      "TLS protocol of the SSL context (HBase's default TLSv1.2).");

  public static final ConfigKey<String> ENABLED_PROTOCOLS = ConfigKey.string("hbase.rpc.tls.enabledProtocols", "",
      "Comma-separated protocols to enable; empty: hbase.rpc.tls.protocol only.");

  public static final ConfigKey<String> CIPHER_SUITES = ConfigKey.string("hbase.rpc.tls.ciphersuites", "",
      "Comma-separated cipher suites; empty: the JDK's defaults.");

  public static final ConfigKey<Boolean> CERT_RELOAD = ConfigKey.bool("hbase.rpc.tls.certReload", false,
      "Reload the keystore and truststore when their files change (new connections use the new certificates).");

  public static final ConfigKey<Long> FILE_POLL_INTERVAL = ConfigKey.millis("hbase.rpc.tls.filepoll.interval.millis",
      60_000, 100, "How often, in ms, certReload looks at the keystore and truststore files.");

  public static final ConfigKey<Boolean> CRL = ConfigKey.bool("hbase.rpc.tls.clr", false,
      "Certificate revocation lists: not supported by Basalt yet; true stops the server.");

  public static final ConfigKey<Boolean> OCSP = ConfigKey.bool("hbase.rpc.tls.ocsp", false,
      "OCSP revocation checks: not supported by Basalt yet; true stops the server.");

  // ---- Client authentication (HBase's names)

  public static final ConfigKey<String> AUTHENTICATION = ConfigKey.string("hbase.security.authentication", "simple",
      "simple: a client is who it claims (no security, as HBase). kerberos: clients authenticate with SASL "
          + "GSSAPI (Kerberos) or DIGEST-MD5 (a token from AuthenticationService); others are refused.");

  public static final ConfigKey<String> MASTER_PRINCIPAL = ConfigKey.string("hbase.master.kerberos.principal", "",
      "The master's Kerberos principal, service/host@REALM; _HOST stands for the master's host name.");

  public static final ConfigKey<String> MASTER_KEYTAB = ConfigKey.path("hbase.master.keytab.file", "",
      "Keytab holding the master principal's key.");

  public static final ConfigKey<String> REGIONSERVER_PRINCIPAL = ConfigKey.string(
      "hbase.regionserver.kerberos.principal", "",
      "A region server's Kerberos principal, service/host@REALM (_HOST: its host name). Standalone uses this one.");

  public static final ConfigKey<String> REGIONSERVER_KEYTAB = ConfigKey.path("hbase.regionserver.keytab.file", "",
      "Keytab holding the region server principal's key.");

  public static final ConfigKey<String> RPC_PROTECTION = ConfigKey.string("hbase.rpc.protection", "authentication",
      "SASL quality of protection the server offers, comma-separated: authentication, integrity (every "
          + "message signed), privacy (encrypted). The client's own setting must share one.");

  public static final ConfigKey<Boolean> ANONYMOUS_FALLBACK = ConfigKey.bool(
      "hbase.ipc.server.fallback-to-simple-auth-allowed", false,
      "With kerberos: let clients that do not authenticate in, as an anonymous user with no name (never as the "
          + "user they claim; HBase would trust the claim). False: they get AccessDeniedException.");

  public static final ConfigKey<Long> TOKEN_KEY_UPDATE_INTERVAL = ConfigKey.millis("hbase.auth.key.update.interval",
      86_400_000L, 1_000, "How long a token signing key signs new tokens before a new key is rolled (ms).");

  public static final ConfigKey<Long> TOKEN_MAX_LIFETIME = ConfigKey.millis("hbase.auth.token.max.lifetime",
      604_800_000L, 1_000, "How long an authentication token is valid after it was issued (ms).");

  private static String clientAuth(String raw) {
    String v = raw.isEmpty() ? "NEED" : raw.toUpperCase(java.util.Locale.ROOT);
    if (!v.equals("NONE") && !v.equals("WANT") && !v.equals("NEED")) {
      throw new IllegalArgumentException("must be NONE, WANT or NEED");
    }
    return v;
  }

  // ---- authorisation (HBase's AccessController model; io.basalt.server.acl)

  public static final ConfigKey<Boolean> AUTHORIZATION = ConfigKey.bool("hbase.security.authorization", false,
      "Check every client call against HBase-style permissions (READ, WRITE, EXEC, CREATE, ADMIN at global, "
          + "namespace, table, family and qualifier scope), kept in ZooKeeper and changed with Admin.grant/revoke.");

  public static final ConfigKey<String> SUPERUSERS = ConfigKey.string("hbase.superuser", "",
      "Users (and @groups) allowed everything when authorisation is on, comma separated; the user running the "
          + "server is always one.");

  public static final ConfigKey<String> GROUP_OVERRIDES = ConfigKey.string(
      "hadoop.user.group.static.mapping.overrides", "dr.who=;",
      "Groups of users given here (user=group1,group2;user2=;) instead of asking the operating system "
          + "(id -Gn), as Hadoop's group mapping does; read for @group permissions and superusers.");

  public static final ConfigKey<Boolean> EARLY_OUT = ConfigKey.bool("hbase.security.access.early_out", true,
      "HBase's choice between refusing a read with no table or family grant (true, HBase's default) and cell-level "
          + "ACL evaluation (false); Basalt has no cell ACLs, so false stops the server.");

  public static final ConfigKey<String> AUDIT_FILE = ConfigKey.path("basalt.security.audit.file", "",
      "File the authorisation audit log (denied calls, administrative calls) is appended to; empty: the "
          + "SecurityLogger.io.basalt.server.acl logger.");

  public static final ConfigKey<Boolean> INTERNAL_TLS = ConfigKey.bool("basalt.internal.tls.enabled", false,
      "Encrypt segment transfer (region moves) and JE HA replication with TLS, using the hbase.rpc.tls.* "
          + "keystore and truststore (the cluster CA); peers must present a certificate of that CA. Always on "
          + "when hbase.server.netty.tls.enabled is true; this key turns it on without TLS on the RPC ports. "
          + "Every server of a cluster needs the same setting.");

  public static final ConfigKey<String> MEMBER_SUBJECT = ConfigKey.of("basalt.member.tls.subject", "regex", "",
      SecurityKeys::memberSubject,
      "With TLS: a regular expression the subject (RFC 2253, e.g. CN=node1,OU=basalt-server,O=Example) of a "
          + "cluster member's certificate must match in full; then an internal connection is a member only "
          + "if its certificate matches AND it proves the cluster secret, so an ordinary client certificate of "
          + "the same CA is not enough. Empty: the cluster secret alone decides.");

  private static String memberSubject(String raw) {
    try {
      java.util.regex.Pattern.compile(raw);
      return raw;
    } catch (java.util.regex.PatternSyntaxException e) {
      throw new IllegalArgumentException("not a regular expression: " + e.getDescription());
    }
  }

  // ---- ZooKeeper client TLS, HBase's spelling: hbase.zookeeper.property.X is ZooKeeper's client property
  // zookeeper.X (HBase's ZKConfig.getZKClientConfig); io.basalt.server.zk.ZooKeeperClientSettings

  public static final ConfigKey<Boolean> ZK_CLIENT_SECURE = ConfigKey.bool("hbase.zookeeper.property.client.secure",
      false, "Connect to ZooKeeper's secure (TLS) client port (zookeeper.client.secure); needs "
          + "hbase.zookeeper.property.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty and the "
          + "hbase.zookeeper.property.ssl.* stores.");

  public static final ConfigKey<String> ZK_CLIENT_CNXN_SOCKET = ConfigKey.string(
      "hbase.zookeeper.property.clientCnxnSocket", "",
      "ZooKeeper client socket class (zookeeper.clientCnxnSocket); TLS needs org.apache.zookeeper.ClientCnxnSocketNetty.");

  public static final ConfigKey<String> ZK_SSL_KEYSTORE_LOCATION = ConfigKey.path(
      "hbase.zookeeper.property.ssl.keyStore.location", "",
      "Keystore with this server's client certificate for ZooKeeper's TLS port (zookeeper.ssl.keyStore.location); "
          + "needed when ZooKeeper requires client certificates (its default).");

  public static final ConfigKey<String> ZK_SSL_KEYSTORE_PASSWORD = ConfigKey.string(
      "hbase.zookeeper.property.ssl.keyStore.password", "", "Password of the ZooKeeper client keystore.");

  public static final ConfigKey<String> ZK_SSL_KEYSTORE_TYPE = ConfigKey.string(
      "hbase.zookeeper.property.ssl.keyStore.type", "", "JKS or PKCS12; empty: from the file name's extension.");

  public static final ConfigKey<String> ZK_SSL_TRUSTSTORE_LOCATION = ConfigKey.path(
      "hbase.zookeeper.property.ssl.trustStore.location", "",
      "Truststore with the CA of ZooKeeper's server certificate (zookeeper.ssl.trustStore.location).");

  public static final ConfigKey<String> ZK_SSL_TRUSTSTORE_PASSWORD = ConfigKey.string(
      "hbase.zookeeper.property.ssl.trustStore.password", "", "Password of the ZooKeeper client truststore.");

  public static final ConfigKey<String> ZK_SSL_TRUSTSTORE_TYPE = ConfigKey.string(
      "hbase.zookeeper.property.ssl.trustStore.type", "", "JKS or PKCS12; empty: from the file name's extension.");

  public static final ConfigKey<String> ZK_SSL_HOSTNAME_VERIFICATION = ConfigKey.string(
      "hbase.zookeeper.property.ssl.hostnameVerification", "",
      "Whether the ZooKeeper server's certificate must name the host connected to (zookeeper.ssl.hostnameVerification); "
          + "empty: ZooKeeper's default (true).");

  public static final ConfigKey<Boolean> ZK_SECURE_ACLS = ConfigKey.bool("basalt.zookeeper.secure.acls", false,
      "Create znodes readable and writable only by the servers' ZooKeeper SASL identity (the JAAS section "
          + "zookeeper.sasl.clientconfig, default Client, of -Djava.security.auth.login.config), except the HBase "
          + "client registry znodes, which everyone may read (as HBase's ZKUtil on a secure cluster). Needs that "
          + "JAAS section; znodes created before keep their ACLs.");
}
