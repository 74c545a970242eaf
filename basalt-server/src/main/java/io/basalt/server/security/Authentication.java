package io.basalt.server.security;

import io.basalt.server.acl.UserGroups;
import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ConfigKey;
import io.basalt.server.config.SecurityKeys;
import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.SaslUtil;

/**
 * How a server authenticates clients on its RPC port, from HBase's settings: {@code
 * hbase.security.authentication} simple (callers are who they claim, as HBase without security) or kerberos
 * (SASL GSSAPI with this server's principal and keytab, DIGEST-MD5 with this cluster's tokens; anything else
 * refused or, with the fallback setting, anonymous). Built before the port opens: a Kerberos setting that
 * cannot be honoured stops the server. Tokens are attached once the server reaches ZooKeeper.
 */
public final class Authentication {
  /** Which principal and keytab settings a process reads (HBase's names). */
  public enum Role {
    MASTER(SecurityKeys.MASTER_PRINCIPAL, SecurityKeys.MASTER_KEYTAB),
    REGION_SERVER(SecurityKeys.REGIONSERVER_PRINCIPAL, SecurityKeys.REGIONSERVER_KEYTAB);

    final ConfigKey<String> principalKey;
    final ConfigKey<String> keytabKey;

    Role(ConfigKey<String> principalKey, ConfigKey<String> keytabKey) {
      this.principalKey = principalKey;
      this.keytabKey = keytabKey;
    }
  }

  private static final Authentication OFF = new Authentication(null, Map.of(), false, false, 0, 0);

  private final KerberosLogin login;
  private final long keyUpdateIntervalMillis;
  private final long tokenLifetimeMillis;
  private final Map<String, String> saslProps;
  private final boolean anonymousFallback;
  private final boolean certificateUsers;
  private volatile TokenAuthority tokens;
  // Set once in from(), before the object is published.
  private ProxyUserRules proxyUsers = ProxyUserRules.none();
  private Function<String, List<String>> groupsOf = user -> List.of();

  private Authentication(KerberosLogin login, Map<String, String> saslProps, boolean anonymousFallback,
      boolean certificateUsers, long keyUpdateIntervalMillis, long tokenLifetimeMillis) {
    this.login = login;
    this.keyUpdateIntervalMillis = keyUpdateIntervalMillis;
    this.tokenLifetimeMillis = tokenLifetimeMillis;
    this.saslProps = saslProps;
    this.anonymousFallback = anonymousFallback;
    this.certificateUsers = certificateUsers;
  }

  /** Security off, no certificate users: every caller is who it claims (in-process servers, tests). */
  public static Authentication off() {
    return OFF;
  }

  /**
   * From the settings. {@code certificateUsers}: TLS on the port with client auth NEED, so a verified
   * certificate names the user. {@code host}: this server's advertised host, for {@code _HOST}.
   */
  public static Authentication from(BasaltConfig c, Role role, String host, boolean certificateUsers) throws IOException {
    String mode = c.get(SecurityKeys.AUTHENTICATION).toLowerCase(Locale.ROOT);
    if (mode.equals("simple")) {
      return certificateUsers ? new Authentication(null, Map.of(), false, true, 0, 0) : OFF;
    }
    if (!mode.equals("kerberos")) {
      throw new IOException(SecurityKeys.AUTHENTICATION.name() + " is " + mode + "; Basalt knows simple and kerberos");
    }
    Map<String, String> props;
    try {
      props = SaslUtil.initSaslProperties(c.get(SecurityKeys.RPC_PROTECTION));
    } catch (IllegalArgumentException e) {
      throw new IOException(SecurityKeys.RPC_PROTECTION.name() + " " + c.get(SecurityKeys.RPC_PROTECTION)
          + " is not a list of authentication, integrity, privacy");
    }
    KerberosLogin login = KerberosLogin.fromKeytab(c.get(role.principalKey), c.get(role.keytabKey),
        role.principalKey.name(), role.keytabKey.name(), host);
    Authentication auth = new Authentication(login, props, c.get(SecurityKeys.ANONYMOUS_FALLBACK), certificateUsers,
        c.get(SecurityKeys.TOKEN_KEY_UPDATE_INTERVAL), c.get(SecurityKeys.TOKEN_MAX_LIFETIME));
    auth.proxyUsers = ProxyUserRules.from(c.rawValues());
    auth.groupsOf = new UserGroups(c.get(SecurityKeys.GROUP_OVERRIDES))::groupsOf;
    return auth;
  }

  /**
   * Admits a Kerberos-authenticated {@code realUser} connecting as {@code effectiveUser} from {@code from} if the
   * {@code hadoop.proxyuser.*} rules allow it (HBase's proxy users), else refuses with AccessDeniedException.
   */
  public void authorizeProxy(String realUser, String effectiveUser, InetAddress from) throws AccessDeniedException {
    proxyUsers.authorize(realUser, effectiveUser, from, groupsOf);
  }

  /** Whether clients must authenticate (hbase.security.authentication=kerberos). */
  public boolean required() {
    return login != null;
  }

  /** With authentication required, whether an unauthenticated client is let in as an anonymous user. */
  public boolean anonymousFallback() {
    return anonymousFallback;
  }

  /** Whether a verified TLS client certificate names the connection's user (TLS with client auth NEED). */
  public boolean certificateUsers() {
    return certificateUsers;
  }

  /** This server's principal, or null without Kerberos (the answer to HBase's security preamble). */
  public String principal() {
    return login == null ? null : login.principal();
  }

  /** How long a token signing key signs new tokens (hbase.auth.key.update.interval). */
  public long keyUpdateIntervalMillis() {
    return keyUpdateIntervalMillis;
  }

  /** How long a token is valid (hbase.auth.token.max.lifetime). */
  public long tokenLifetimeMillis() {
    return tokenLifetimeMillis;
  }

  /** From now on tokens can be issued and checked (the server reached ZooKeeper). */
  public void attachTokens(TokenAuthority authority) {
    tokens = authority;
  }

  /** The token issuer, or null (security off, or not attached yet). */
  public TokenAuthority tokens() {
    return required() ? tokens : null;
  }

  /** Starts the SASL exchange a preamble's auth byte asks for: 81 Kerberos, 82 token (HBase's codes). */
  public SaslExchange start(int authByte) throws IOException {
    if (authByte == 81) {
      return SaslExchange.gssapi(login, saslProps);
    }
    if (authByte == 82) {
      TokenAuthority t = tokens;
      if (t == null) {
        throw new org.apache.hadoop.hbase.ipc.ServerNotRunningYetException("token authentication is not ready yet");
      }
      return SaslExchange.digest(t, saslProps);
    }
    throw new AccessDeniedException("unknown authentication method " + authByte);
  }
}
