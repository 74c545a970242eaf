package io.basalt.gateway.security;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.Base64;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.Oid;

/**
 * HTTP SPNEGO (Kerberos) authentication for a gateway's HTTP listener, as Hadoop's AuthenticationFilter does it
 * for HBase's REST server: a request without {@code Authorization: Negotiate} gets 401 with
 * {@code WWW-Authenticate: Negotiate}; a token that does not verify gets 403; an accepted one names the user
 * (its principal's short name, as {@code request.getRemoteUser()} does with the default auth_to_local), and
 * the acceptor's answer token goes back for mutual authentication. The acceptor logs in from its own keytab
 * ({@code HTTP/host@REALM} by convention) in a subject of its own. Every request authenticates (no cookie).
 */
public final class SpnegoAuthenticator extends Authenticator {
  private static final Oid SPNEGO = oid("1.3.6.1.5.5.2");
  private static final Oid KRB5 = oid("1.2.840.113554.1.2.2");

  private final Subject subject;
  private final String realm;

  private SpnegoAuthenticator(Subject subject, String realm) {
    this.subject = subject;
    this.realm = realm;
  }

  /** Logs {@code principal} in from {@code keytab} (the key names are for the errors). */
  public static SpnegoAuthenticator login(String principal, String keytab, String principalKey, String keytabKey)
      throws IOException {
    if (principal.isEmpty() || keytab.isEmpty()) {
      throw new IOException("SPNEGO authentication needs " + (principal.isEmpty() ? principalKey : keytabKey));
    }
    if (!Files.isReadable(Path.of(keytab))) {
      throw new IOException(keytabKey + " " + keytab + " does not exist or is not readable");
    }
    Subject subject = new Subject();
    Map<String, String> options = Map.of("useKeyTab", "true", "keyTab", Path.of(keytab).toAbsolutePath().toString(),
        "principal", principal, "storeKey", "true", "doNotPrompt", "true", "isInitiator", "false",
        "refreshKrb5Config", "true");
    javax.security.auth.login.Configuration jaas = new javax.security.auth.login.Configuration() {
      @Override
      public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
        return new AppConfigurationEntry[] {new AppConfigurationEntry("com.sun.security.auth.module.Krb5LoginModule",
            AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, options)};
      }
    };
    try {
      new LoginContext("basalt-spnego", subject, null, jaas).login();
    } catch (LoginException e) {
      throw new IOException("Kerberos login of " + principal + " from " + keytabKey + " " + keytab + " failed: "
          + e.getMessage(), e);
    }
    int at = principal.indexOf('@');
    return new SpnegoAuthenticator(subject, at < 0 ? "" : principal.substring(at + 1));
  }

  @Override
  public Result authenticate(HttpExchange exchange) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Negotiate ", 0, 10)) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Negotiate");
      return new Retry(401);
    }
    byte[] token;
    try {
      token = Base64.getDecoder().decode(header.substring(10).trim());
    } catch (IllegalArgumentException e) {
      return new Failure(403);
    }
    try {
      Accepted accepted = Subject.doAs(subject, (PrivilegedExceptionAction<Accepted>) () -> accept(token));
      if (accepted.reply != null) {
        exchange.getResponseHeaders().set("WWW-Authenticate",
            "Negotiate " + Base64.getEncoder().encodeToString(accepted.reply));
      }
      if (accepted.user == null) {
        return new Failure(403); // Kerberos completes in one leg; anything else is not spoken here
      }
      return new Success(new HttpPrincipal(accepted.user, realm));
    } catch (PrivilegedActionException e) {
      return new Failure(403);
    }
  }

  private record Accepted(String user, byte[] reply) {}

  private static Accepted accept(byte[] token) throws GSSException {
    GSSManager manager = GSSManager.getInstance();
    GSSCredential credential = manager.createCredential(null, GSSCredential.INDEFINITE_LIFETIME,
        new Oid[] {SPNEGO, KRB5}, GSSCredential.ACCEPT_ONLY);
    GSSContext context = manager.createContext(credential);
    try {
      byte[] reply = context.acceptSecContext(token, 0, token.length);
      if (!context.isEstablished()) {
        return new Accepted(null, reply);
      }
      return new Accepted(shortName(context.getSrcName().toString()), reply);
    } finally {
      context.dispose();
    }
  }

  /** {@code alice@REALM} and {@code svc/host@REALM}: {@code alice}, {@code svc}. */
  public static String shortName(String principal) {
    return principal.split("[/@]", 2)[0];
  }

  private static Oid oid(String id) {
    try {
      return new Oid(id);
    } catch (GSSException e) {
      throw new IllegalStateException(e);
    }
  }
}
