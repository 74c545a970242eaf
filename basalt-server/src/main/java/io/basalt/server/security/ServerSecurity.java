package io.basalt.server.security;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.SecurityKeys;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.Principal;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The security of one server process, from its configuration: the cluster secret its internal connections
 * prove, and TLS on its RPC port with HBase 2.6's settings. Built before any port opens; a setting that asks
 * for protection and cannot be honoured (no keystore, a wrong password, an unsupported option) fails the
 * start with an {@link IOException} saying which.
 */
public final class ServerSecurity implements AutoCloseable {
  private final ClusterSecret secret;
  private final ReloadingTls tls;
  private final boolean serverTls;
  private final boolean supportPlaintext;
  private final TlsOptions serverOptions;
  private final MemberConnector connector;
  private final boolean httpsStatus;
  private Authentication authentication = Authentication.off();
  private io.basalt.server.acl.AccessSettings access = io.basalt.server.acl.AccessSettings.OFF;
  private MemberTls memberTls;
  private MemberCertificateRule memberRule = MemberCertificateRule.ANY;
  private org.apache.zookeeper.client.ZKClientConfig zookeeperClient =
      io.basalt.server.zk.ZooKeeperClientSettings.plain();
  private boolean secureZnodes;

  private ServerSecurity(ClusterSecret secret, ReloadingTls tls, boolean serverTls, boolean supportPlaintext,
      TlsOptions serverOptions, TlsOptions clientOptions, boolean clientTls, boolean httpsStatus) {
    this.secret = secret;
    this.httpsStatus = httpsStatus;
    this.tls = tls;
    this.serverTls = serverTls;
    this.supportPlaintext = supportPlaintext;
    this.serverOptions = serverOptions;
    this.connector = new MemberConnector(secret, clientTls ? tls : null, clientOptions);
  }

  /** The servers of one JVM (standalone, in-process tests) with no TLS: they share an in-memory secret. */
  public static ServerSecurity inProcess() {
    return new ServerSecurity(ClusterSecret.inProcess(), null, false, true, TlsOptions.DEFAULT, TlsOptions.DEFAULT,
        false, false);
  }

  /**
   * From the settings; {@code defaultSecret} is used when {@code basalt.cluster.secret.file} is not set
   * (a standalone process passes its in-memory one, a cluster server reads ~/.basalt/cluster.secret).
   */
  public static ServerSecurity from(BasaltConfig c, ClusterSecret defaultSecret) throws IOException {
    return from(c, defaultSecret, Authentication.Role.REGION_SERVER, "localhost");
  }

  /**
   * As {@link #from(BasaltConfig, ClusterSecret)}, with client authentication ({@code
   * hbase.security.authentication}) as a {@code role} on {@code host} (whose principal and keytab it reads) and
   * authorisation ({@code hbase.security.authorization}).
   */
  public static ServerSecurity from(BasaltConfig c, ClusterSecret defaultSecret, Authentication.Role role, String host)
      throws IOException {
    io.basalt.server.acl.AccessSettings access = io.basalt.server.acl.AccessSettings.from(c);
    ServerSecurity s = transport(c, defaultSecret);
    s.access = access;
    try {
      s.zookeeperClient = io.basalt.server.zk.ZooKeeperClientSettings.from(c);
      s.secureZnodes = io.basalt.server.zk.ZooKeeperClientSettings.secureAcls(c, s.zookeeperClient);
      s.authentication = Authentication.from(c, role, host,
          s.serverTls && "NEED".equals(s.serverOptions.clientAuth()));
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
    return s;
  }

  /** How this server's ZooKeeper client connects (TLS: hbase.zookeeper.property.client.secure, ssl.*). */
  public org.apache.zookeeper.client.ZKClientConfig zookeeperClient() {
    return zookeeperClient;
  }

  /** The ACLs of the znodes this server creates: SASL-creator-only (basalt.zookeeper.secure.acls), else null (open). */
  public org.apache.curator.framework.api.ACLProvider zookeeperAcls(String hbaseParent) {
    return secureZnodes ? new io.basalt.server.zk.SecureZnodeAcls(hbaseParent) : null;
  }

  /** Who may do what (authorisation); off unless {@code hbase.security.authorization} is true. */
  public io.basalt.server.acl.AccessSettings access() {
    return access;
  }

  private static ServerSecurity transport(BasaltConfig c, ClusterSecret defaultSecret) throws IOException {
    String file = c.get(SecurityKeys.CLUSTER_SECRET_FILE);
    ClusterSecret secret = !file.isEmpty() ? ClusterSecret.loadOrCreate(Path.of(file))
        : defaultSecret != null ? defaultSecret : ClusterSecret.loadOrCreate(ClusterSecret.defaultFile());
    boolean serverTls = c.get(SecurityKeys.SERVER_TLS);
    boolean clientTls = serverTls || c.get(SecurityKeys.CLIENT_TLS);
    boolean httpsStatus = c.get(SecurityKeys.HTTPS_STATUS);
    boolean internalTls = serverTls || c.get(SecurityKeys.INTERNAL_TLS);
    MemberCertificateRule rule = MemberCertificateRule.of(c.get(SecurityKeys.MEMBER_SUBJECT));
    if (rule.restricts() && !internalTls) {
      throw new IOException(SecurityKeys.MEMBER_SUBJECT.name() + " is set but member connections do not use TLS: "
          + "set " + SecurityKeys.SERVER_TLS.name() + " or " + SecurityKeys.INTERNAL_TLS.name() + " to true");
    }
    if (!clientTls && !httpsStatus && !internalTls) {
      return new ServerSecurity(secret, null, false, true, TlsOptions.DEFAULT, TlsOptions.DEFAULT, false, false);
    }
    if (c.get(SecurityKeys.CRL) || c.get(SecurityKeys.OCSP)) {
      throw new IOException(SecurityKeys.CRL.name() + " and " + SecurityKeys.OCSP.name()
          + " are not supported by Basalt yet; set them false (certificate revocation is not checked)");
    }
    String keystore = c.get(SecurityKeys.KEYSTORE_LOCATION);
    if (keystore.isEmpty()) {
      throw new IOException("TLS is on (" + SecurityKeys.SERVER_TLS.name() + ", " + SecurityKeys.CLIENT_TLS.name()
          + ", " + SecurityKeys.INTERNAL_TLS.name() + " or " + SecurityKeys.HTTPS_STATUS.name() + ") but " + SecurityKeys.KEYSTORE_LOCATION.name()
          + " is not set: a server needs its certificate");
    }
    String truststore = c.get(SecurityKeys.TRUSTSTORE_LOCATION);
    if (internalTls && truststore.isEmpty()) {
      // The JDK's CAs would let any publicly certified host onto the replication and transfer ports.
      throw new IOException("TLS for internal traffic is on (" + SecurityKeys.SERVER_TLS.name() + " or "
          + SecurityKeys.INTERNAL_TLS.name() + ") but " + SecurityKeys.TRUSTSTORE_LOCATION.name()
          + " is not set: members must trust the cluster's CA, not the JDK's");
    }
    if (rule.restricts() && serverTls && "NONE".equals(c.get(SecurityKeys.CLIENT_AUTH))) {
      throw new IOException(SecurityKeys.MEMBER_SUBJECT.name() + " is set but " + SecurityKeys.CLIENT_AUTH.name()
          + " is NONE: the RPC port would never see a member's certificate (use WANT or NEED)");
    }
    String protocol = c.get(SecurityKeys.PROTOCOL);
    TlsMaterial material = new TlsMaterial(Path.of(keystore), c.get(SecurityKeys.KEYSTORE_TYPE),
        c.get(SecurityKeys.KEYSTORE_PASSWORD).toCharArray(), truststore.isEmpty() ? null : Path.of(truststore),
        c.get(SecurityKeys.TRUSTSTORE_TYPE), c.get(SecurityKeys.TRUSTSTORE_PASSWORD).toCharArray(), protocol);
    String enabled = c.get(SecurityKeys.ENABLED_PROTOCOLS);
    var protocols = enabled.isEmpty() ? java.util.List.of(protocol) : TlsOptions.split(enabled);
    var ciphers = TlsOptions.split(c.get(SecurityKeys.CIPHER_SUITES));
    TlsOptions serverOptions = new TlsOptions(protocols, ciphers, c.get(SecurityKeys.CLIENT_AUTH),
        c.get(SecurityKeys.VERIFY_CLIENT_HOSTNAME));
    TlsOptions clientOptions = new TlsOptions(protocols, ciphers, "NONE", c.get(SecurityKeys.VERIFY_SERVER_HOSTNAME));
    ReloadingTls tls = new ReloadingTls(material, c.get(SecurityKeys.CERT_RELOAD)
        ? c.get(SecurityKeys.FILE_POLL_INTERVAL) : 0);
    try {
      checkNegotiable(tls, serverOptions);
    } catch (IOException | RuntimeException e) {
      tls.close();
      throw e;
    }
    ServerSecurity s = new ServerSecurity(secret, tls, serverTls, c.get(SecurityKeys.SUPPORT_PLAINTEXT),
        serverOptions, clientOptions, clientTls, httpsStatus);
    s.memberRule = rule;
    s.memberTls = internalTls ? new MemberTls(tls, serverOptions, clientOptions, rule) : null;
    return s;
  }

  /** Unknown protocol or cipher names fail here, at start, rather than on every connection. */
  private static void checkNegotiable(ReloadingTls tls, TlsOptions options) throws IOException {
    try {
      SSLEngine engine = tls.context().createSSLEngine();
      engine.setUseClientMode(false);
      SSLParameters p = engine.getSSLParameters();
      options.applyServer(p);
      engine.setSSLParameters(p);
    } catch (IllegalArgumentException e) {
      throw new IOException("TLS settings cannot be used: " + e.getMessage(), e);
    }
  }

  /** How clients on the RPC port authenticate (Kerberos, tokens, certificates), or that they do not. */
  public Authentication authentication() {
    return authentication;
  }

  public ClusterSecret secret() {
    return secret;
  }

  /**
   * TLS of the internal ports (segment transfer, JE HA replication), or null when they are plaintext
   * ({@code basalt.internal.tls.enabled}, on with {@code hbase.server.netty.tls.enabled}).
   */
  public MemberTls memberTls() {
    return memberTls;
  }

  /** Opens this server's segment transfer connections: over {@link #memberTls()} when set. */
  public MemberConnector internalConnector() {
    return memberTls == null ? new MemberConnector(secret, null, TlsOptions.DEFAULT)
        : new MemberConnector(secret, memberTls);
  }

  /** Opens this server's RPC connections to other members. */
  public MemberConnector connector() {
    return connector;
  }

  /** The context of the HTTPS status pages ({@code hbase.ssl.enabled}), or null for plain HTTP. */
  public javax.net.ssl.SSLContext httpsContext() {
    return httpsStatus ? tls.context() : null;
  }

  public boolean tlsServer() {
    return serverTls;
  }

  /** The TLS context holder (for a reload now, in tests), or null without TLS. */
  public ReloadingTls tls() {
    return tls;
  }

  /**
   * Puts the transport handlers at the head of a new connection's pipeline: TLS (required, or detected
   * when plaintext is supported too), then the member handshake detector.
   */
  public void initServerPipeline(Channel ch) {
    ChannelPipeline p = ch.pipeline();
    if (serverTls) {
      InetSocketAddress peer = (InetSocketAddress) ch.remoteAddress();
      if (supportPlaintext) {
        p.addLast("tls-or-plaintext", new TlsOrPlaintext(() -> newSslHandler(peer)));
      } else {
        p.addLast("tls", newSslHandler(peer));
      }
    }
    p.addLast("member-handshake", new MemberHandshakeHandler(secret, serverTls ? memberRule
        : MemberCertificateRule.ANY));
  }

  private SslHandler newSslHandler(InetSocketAddress peer) {
    SSLEngine engine = peer == null ? tls.context().createSSLEngine()
        : tls.context().createSSLEngine(peer.getAddress().getHostAddress(), peer.getPort());
    engine.setUseClientMode(false);
    SSLParameters params = engine.getSSLParameters();
    serverOptions.applyServer(params);
    engine.setSSLParameters(params);
    return new SslHandler(engine);
  }

  /** The verified subject of a connection's client certificate, or null (no TLS, or no certificate). */
  public static String tlsPeer(ChannelPipeline p) {
    SslHandler ssl = p.get(SslHandler.class);
    if (ssl == null) {
      return null;
    }
    try {
      Principal principal = ssl.engine().getSession().getPeerPrincipal();
      return principal == null ? null : principal.getName();
    } catch (SSLPeerUnverifiedException e) {
      return null;
    }
  }

  @Override
  public void close() {
    if (tls != null) {
      tls.close();
    }
  }
}
