package io.basalt.server.security;

import java.io.IOException;
import java.util.Base64;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;

/**
 * The server side of one connection's SASL authentication, as HBase 2.6's server runs it: GSSAPI as this
 * server's Kerberos principal (protocol and host from the principal), or DIGEST-MD5 against tokens this
 * cluster issued (realm "default", user name the Base64 token identifier, password the Base64 token
 * password). A client may only act as the identity it authenticated as. After completion, the negotiated
 * quality of protection says whether the rest of the connection is wrapped (integrity or privacy).
 */
public final class SaslExchange {
  /** HBase's SaslUtil.SASL_DEFAULT_REALM: the DIGEST-MD5 server name. */
  private static final String DIGEST_REALM = "default";

  private final SaslServer server;
  private final KerberosLogin login;
  private final boolean kerberos;

  private SaslExchange(SaslServer server, KerberosLogin login, boolean kerberos) {
    this.server = server;
    this.login = login;
    this.kerberos = kerberos;
  }

  static SaslExchange gssapi(KerberosLogin login, Map<String, String> props) throws IOException {
    SaslServer s = login.doAs(() -> Sasl.createSaslServer("GSSAPI", login.service(), login.host(), props,
        SaslExchange::authorizeSelfOnly));
    if (s == null) {
      throw new SaslException("this JDK has no GSSAPI SASL server");
    }
    return new SaslExchange(s, login, true);
  }

  static SaslExchange digest(TokenAuthority tokens, Map<String, String> props) throws IOException {
    SaslServer s = Sasl.createSaslServer("DIGEST-MD5", null, DIGEST_REALM, props, callbacks -> {
      for (Callback c : callbacks) {
        if (c instanceof NameCallback || c instanceof RealmCallback || c instanceof AuthorizeCallback) {
          continue;
        }
        if (!(c instanceof PasswordCallback)) {
          throw new UnsupportedCallbackException(c, "not a DIGEST-MD5 callback");
        }
      }
      for (Callback c : callbacks) {
        if (c instanceof PasswordCallback pc) {
          String name = null;
          for (Callback n : callbacks) {
            if (n instanceof NameCallback nc) {
              name = nc.getDefaultName();
            }
          }
          byte[] password = tokens.password(decodeIdentifier(name));
          pc.setPassword(Base64.getEncoder().encodeToString(password).toCharArray());
        }
      }
      authorizeSelfOnly(callbacks);
    });
    if (s == null) {
      throw new SaslException("this JDK has no DIGEST-MD5 SASL server");
    }
    return new SaslExchange(s, null, false);
  }

  private static byte[] decodeIdentifier(String name) throws InvalidToken {
    try {
      return Base64.getDecoder().decode(name == null ? "" : name);
    } catch (IllegalArgumentException e) {
      throw new InvalidToken("the DIGEST-MD5 user name is not a Base64 token identifier");
    }
  }

  /** No proxying at the SASL layer: the authorisation id must be the authenticated one. */
  private static void authorizeSelfOnly(Callback[] callbacks) throws UnsupportedCallbackException {
    for (Callback c : callbacks) {
      if (c instanceof AuthorizeCallback ac) {
        boolean same = ac.getAuthenticationID().equals(ac.getAuthorizationID());
        ac.setAuthorized(same);
        if (same) {
          ac.setAuthorizedID(ac.getAuthorizationID());
        }
      } else if (!(c instanceof NameCallback || c instanceof PasswordCallback || c instanceof RealmCallback)) {
        throw new UnsupportedCallbackException(c);
      }
    }
  }

  /** The server's answer to a client token, or null when there is nothing to send. */
  public byte[] evaluate(byte[] response) throws IOException {
    return kerberos ? login.doAs(() -> server.evaluateResponse(response)) : server.evaluateResponse(response);
  }

  public boolean complete() {
    return server.isComplete();
  }

  /** Kerberos (GSSAPI) or a token (DIGEST-MD5). */
  public boolean kerberos() {
    return kerberos;
  }

  /**
   * Who authenticated: the Kerberos principal ({@code alice@EXAMPLE.COM}), or the user the token was issued
   * to. Only after {@link #complete()}.
   */
  public String user() throws IOException {
    String id = server.getAuthorizationID();
    return kerberos ? id : TokenAuthority.owner(decodeIdentifier(id));
  }

  /** The negotiated quality of protection: auth, auth-int or auth-conf. */
  public String qop() {
    Object q = server.getNegotiatedProperty(Sasl.QOP);
    return q == null ? "auth" : q.toString();
  }

  /** Whether the connection's bytes are wrapped from now on (integrity or privacy). */
  public boolean wraps() {
    return !"auth".equalsIgnoreCase(qop());
  }

  public byte[] wrap(byte[] b) throws SaslException {
    return server.wrap(b, 0, b.length);
  }

  public byte[] unwrap(byte[] b) throws SaslException {
    return server.unwrap(b, 0, b.length);
  }

  public void dispose() {
    try {
      server.dispose();
    } catch (SaslException ignored) {
      // nothing held that outlives the connection
    }
  }
}
