package io.basalt.server.rpc;

/**
 * Who is on the other end of a connection, as far as the transport has proven it. The one place that says
 * who the caller is: authorisation asks {@link #user()} and {@link #authMethod()}, nothing else.
 *
 * @param claimedUser the user the connection header names (HBase's effective user); proven only when
 *     {@code authMethod} is KERBEROS or TOKEN (then it equals {@code authenticatedUser})
 * @param clusterMember whether it proved knowledge of the cluster secret (a master or region server)
 * @param tlsPeer the subject of its verified TLS client certificate, or null
 * @param authenticatedUser the identity SASL or the certificate proved (a Kerberos principal such as
 *     {@code alice@EXAMPLE.COM}, a token's owner, a certificate's CN), or null when nothing was proven
 * @param authMethod how the user was established
 */
public record Caller(String claimedUser, boolean clusterMember, String tlsPeer, String authenticatedUser,
    AuthMethod authMethod) {
  public static final Caller ANONYMOUS = new Caller("", false, null, null, AuthMethod.ANONYMOUS);

  /** How {@link #user()} was established; the names are HBase's (WhoAmI's auth_method). */
  public enum AuthMethod {
    /** Security off: the name the client claims, not verified (as HBase without Kerberos). */
    SIMPLE,
    /** SASL GSSAPI with a Kerberos ticket. */
    KERBEROS,
    /** SASL DIGEST-MD5 with a token this cluster issued. */
    TOKEN,
    /**
     * A Kerberos-authenticated real user (a gateway) acting for the user its connection header names, admitted
     * by the {@code hadoop.proxyuser.*} rules: the name is that effective user's.
     */
    PROXY,
    /** The CN of a verified TLS client certificate (client auth NEED). */
    CERTIFICATE,
    /** Security on and nothing proven (only with the anonymous fallback setting): no name, no rights. */
    ANONYMOUS
  }

  /** A SIMPLE caller (security off): its claimed name is its name. */
  public Caller(String claimedUser, boolean clusterMember, String tlsPeer) {
    this(claimedUser, clusterMember, tlsPeer, null, AuthMethod.SIMPLE);
  }

  /**
   * The name authorisation should use: the proven identity, the claimed one when security is off, and ""
   * for an anonymous caller (who must get no rights).
   */
  public String user() {
    return switch (authMethod) {
      case SIMPLE -> claimedUser;
      case ANONYMOUS -> "";
      default -> authenticatedUser;
    };
  }

  /**
   * {@link #user()} without a Kerberos principal's instance and realm ({@code hbase/host@REALM} becomes
   * {@code hbase}), as HBase's {@code User.getShortName()} with the default auth_to_local rule: the name
   * ACLs and {@code hbase.superuser} are written with.
   */
  public String shortUser() {
    return shortName(user());
  }

  /** A principal's first component: {@code hbase/host@REALM} and {@code hbase@REALM} are {@code hbase}. */
  public static String shortName(String principal) {
    int cut = principal.length();
    for (char c : new char[] {'/', '@'}) {
      int i = principal.indexOf(c);
      if (i >= 0 && i < cut) {
        cut = i;
      }
    }
    return principal.substring(0, cut);
  }

  /** Whether the identity was proven (Kerberos, token or certificate), not merely claimed. */
  public boolean authenticated() {
    return authMethod == AuthMethod.KERBEROS || authMethod == AuthMethod.TOKEN || authMethod == AuthMethod.CERTIFICATE
        || authMethod == AuthMethod.PROXY;
  }

  public Caller withUser(String user) {
    return new Caller(user, clusterMember, tlsPeer, authenticatedUser, authMethod);
  }
}
