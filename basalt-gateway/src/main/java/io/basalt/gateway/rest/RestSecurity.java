package io.basalt.gateway.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import io.basalt.gateway.security.ClusterAccess;
import io.basalt.gateway.security.ListenerTls;
import io.basalt.gateway.security.SpnegoAuthenticator;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.authorize.AuthorizationException;

/**
 * The REST gateway's security settings, HBase's REST server keys: HTTPS ({@code hbase.rest.ssl.*}), SPNEGO
 * ({@code hbase.rest.authentication.type=kerberos} with {@code hbase.rest.authentication.kerberos.principal} and
 * {@code .keytab}), the gateway's own identity toward the cluster ({@code hbase.rest.kerberos.principal},
 * {@code hbase.rest.keytab.file}) and proxy users ({@code hbase.rest.support.proxyuser}: a request's
 * {@code doAs} parameter, allowed by Hadoop's {@code hadoop.proxyuser.*} rules for the authenticated user).
 */
record RestSecurity(SSLContext tls, SpnegoAuthenticator spnego, boolean proxyUsers) {
  static final String PRINCIPAL = "hbase.rest.kerberos.principal";
  static final String KEYTAB = "hbase.rest.keytab.file";
  static final String MAX_IDLE = "hbase.rest.connection.max-idletime";
  static final String AUTH_TYPE = "hbase.rest.authentication.type";
  static final String SPNEGO_PRINCIPAL = "hbase.rest.authentication.kerberos.principal";
  static final String SPNEGO_KEYTAB = "hbase.rest.authentication.kerberos.keytab";
  static final String SUPPORT_PROXYUSER = "hbase.rest.support.proxyuser";
  static final String DO_AS = "doAs";

  static RestSecurity from(Configuration conf) throws IOException {
    SSLContext tls = ListenerTls.fromConf(conf, "hbase.rest.ssl");
    String type = conf.get(AUTH_TYPE, "simple").toLowerCase(Locale.ROOT);
    SpnegoAuthenticator spnego = switch (type) {
      case "simple" -> null;
      case "kerberos" -> SpnegoAuthenticator.login(
          conf.get(SPNEGO_PRINCIPAL, "").replace("_HOST", ClusterAccess.canonical(conf.get(RestGatewayOptions.BIND))),
          conf.get(SPNEGO_KEYTAB, ""), SPNEGO_PRINCIPAL, SPNEGO_KEYTAB);
      default -> throw new IOException(AUTH_TYPE + " is " + type + "; the REST gateway knows simple and kerberos");
    };
    return new RestSecurity(tls, spnego, conf.getBoolean(SUPPORT_PROXYUSER, false));
  }

  /**
   * Whom a request acts for: its {@code doAs} user if the authenticated user may act for it, else the
   * authenticated user (SPNEGO), else the gateway itself (null). A refused {@code doAs} is 403.
   */
  String effectiveUser(HttpExchange exchange, ClusterAccess access) {
    HttpPrincipal principal = exchange.getPrincipal();
    String authenticated = principal == null ? null : principal.getUsername();
    String doAs = doAs(exchange.getRequestURI().getRawQuery());
    if (doAs == null) {
      return authenticated;
    }
    if (!proxyUsers) {
      throw new RestException(403, "Support for proxyuser is not configured (" + SUPPORT_PROXYUSER + ")");
    }
    if (authenticated == null) {
      throw new RestException(403, "doAs needs an authenticated user (" + AUTH_TYPE + "=kerberos)");
    }
    try {
      access.authorizeProxy(authenticated, doAs, exchange.getRemoteAddress().getAddress().getHostAddress());
    } catch (AuthorizationException e) {
      throw new RestException(403, e.getMessage());
    }
    return doAs;
  }

  private static String doAs(String rawQuery) {
    if (rawQuery == null) {
      return null;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && pair.substring(0, eq).equals(DO_AS)) {
        String user = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        return user.isEmpty() ? null : user;
      }
    }
    return null;
  }
}
