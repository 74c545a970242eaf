package io.basalt.gateway.thrift;

import io.basalt.gateway.security.ClusterAccess;
import io.basalt.gateway.security.ListenerTls;
import io.basalt.gateway.security.SpnegoAuthenticator;
import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.security.PrivilegedExceptionAction;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.TTransportFactory;

/**
 * The Thrift gateway's security settings, HBase's ThriftServer keys: TLS on the listener
 * ({@code hbase.thrift.ssl.*}), the gateway's identity toward the cluster ({@code hbase.thrift.kerberos.principal},
 * {@code hbase.thrift.keytab.file}) and SASL GSSAPI for its clients when {@code hbase.thrift.security.qop} is set
 * (auth, auth-int or auth-conf; HBase's names authentication, integrity, privacy too). As in HBase, a SASL client
 * acts as itself: every call of its connection runs as a proxy user for its principal's short name, so the
 * cluster's ACLs apply to it. HBase refuses SASL with framed transport: that stops the gateway at start. In HTTP
 * mode ({@code hbase.regionserver.thrift.http}) SPNEGO authenticates instead, and {@code hbase.thrift.support.proxyuser}
 * allows a {@code doAs} header (see {@link ThriftHttpServer}).
 */
record ThriftSecurity(SSLContext tls, String qop, boolean http, boolean proxyUsers) {
  static final String PRINCIPAL = "hbase.thrift.kerberos.principal";
  static final String KEYTAB = "hbase.thrift.keytab.file";
  static final String QOP = "hbase.thrift.security.qop";
  static final String MAX_IDLE = "hbase.thrift.connection.max-idletime";
  static final String HTTP = "hbase.regionserver.thrift.http";
  static final String SUPPORT_PROXYUSER = "hbase.thrift.support.proxyuser";
  static final String SPNEGO_PRINCIPAL = "hbase.thrift.spnego.principal";
  static final String SPNEGO_KEYTAB = "hbase.thrift.spnego.keytab.file";

  static ThriftSecurity from(Configuration conf, boolean framed) throws IOException {
    boolean http = conf.getBoolean(HTTP, false);
    boolean proxyUsers = conf.getBoolean(SUPPORT_PROXYUSER, false);
    SSLContext tls = ListenerTls.fromConf(conf, "hbase.thrift.ssl");
    String qop = conf.get(QOP);
    if (qop == null || qop.isEmpty()) {
      return new ThriftSecurity(tls, null, http, proxyUsers);
    }
    String saslQop = switch (qop.toLowerCase(Locale.ROOT)) {
      case "auth", "authentication" -> "auth";
      case "auth-int", "integrity" -> "auth-int";
      case "auth-conf", "privacy" -> "auth-conf";
      default -> throw new IOException("Invalid " + QOP + ": " + qop + ". It must be one of auth, auth-int, or "
          + "auth-conf");
    };
    if (!"kerberos".equalsIgnoreCase(conf.get("hbase.security.authentication", "simple"))) {
      throw new IOException("Thrift server must run in secure mode to support authentication (" + QOP
          + " needs hbase.security.authentication=kerberos)");
    }
    if (http) {
      // HTTP mode authenticates with SPNEGO; HBase refuses privacy without TLS there.
      if (saslQop.equals("auth-conf") && tls == null) {
        throw new IOException("Thrift HTTP Server's QoP is privacy, but hbase.thrift.ssl.enabled is false");
      }
      return new ThriftSecurity(tls, null, true, proxyUsers);
    }
    if (framed) {
      throw new IOException("Thrift server authentication doesn't work with framed transport yet (" + QOP + ")");
    }
    return new ThriftSecurity(tls, saslQop, false, proxyUsers);
  }

  /**
   * HTTP mode's SPNEGO acceptor when the cluster needs Kerberos ({@code hbase.thrift.spnego.principal} and
   * {@code .keytab.file}, else the gateway's own principal and keytab, as HBase falls back), else null.
   */
  SpnegoAuthenticator spnego(Configuration conf, ClusterAccess access) throws IOException {
    if (access.login() == null) {
      return null;
    }
    String principal = conf.get(SPNEGO_PRINCIPAL, conf.get(PRINCIPAL, ""));
    String keytab = conf.get(SPNEGO_KEYTAB, conf.get(KEYTAB, ""));
    return SpnegoAuthenticator.login(principal.replace("_HOST",
        ClusterAccess.canonical(conf.get(ThriftGatewayOptions.BIND))), keytab, SPNEGO_PRINCIPAL, SPNEGO_KEYTAB);
  }

  /**
   * The transport: SASL GSSAPI accepted with the gateway's Kerberos keys (as {@code service/host} of its
   * principal) when a QOP is set, else {@code plain}.
   */
  TTransportFactory transport(TTransportFactory plain, ClusterAccess access, String principal) throws IOException {
    if (qop == null) {
      return plain;
    }
    int slash = principal.indexOf('/');
    int at = principal.indexOf('@');
    if (slash <= 0 || at < slash + 2) {
      throw new IOException(PRINCIPAL + " " + principal + " is not of the form service/host@REALM");
    }
    TSaslServerTransport.Factory sasl = new TSaslServerTransport.Factory();
    sasl.addServerDefinition("GSSAPI", principal.substring(0, slash), principal.substring(slash + 1, at),
        Map.of(Sasl.QOP, qop, Sasl.SERVER_AUTH, "true"), callbacks -> {
          for (Callback c : callbacks) {
            if (!(c instanceof AuthorizeCallback ac)) {
              throw new UnsupportedCallbackException(c, "only authorisation callbacks");
            }
            // A client may not name another user to act for (HBase's rule for binary mode).
            ac.setAuthorized(ac.getAuthenticationID().equals(ac.getAuthorizationID()));
            if (ac.isAuthorized()) {
              ac.setAuthorizedID(ac.getAuthorizationID().split("[/@]", 2)[0]);
            }
          }
        });
    return new TTransportFactory() {
      @Override
      public TTransport getTransport(TTransport client) throws TTransportException {
        try {
          // The SASL server is made and the handshake run here, with the gateway's keys.
          return access.login().doAs((PrivilegedExceptionAction<TTransport>) () -> sasl.getTransport(client));
        } catch (UndeclaredThrowableException e) {
          throw e.getCause() instanceof TTransportException t ? t : new TTransportException(e.getCause());
        } catch (IOException | InterruptedException e) {
          throw new TTransportException(e);
        }
      }
    };
  }

  /** Runs each call of a SASL connection as its authenticated user. */
  TProcessor actingForClient(TProcessor processor) {
    if (qop == null) {
      return processor;
    }
    return (TProtocol in, TProtocol out) -> {
      SaslServer server = ((TSaslServerTransport) in.getTransport()).getSaslServer();
      ClusterAccess.actAs(server.getAuthorizationID());
      try {
        processor.process(in, out);
      } finally {
        ClusterAccess.actAs(null);
      }
    };
  }
}
