package io.basalt.server.security;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.Locale;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;

/**
 * A server's Kerberos identity, logged in from its keytab with the JDK's Krb5LoginModule (no JAAS file, no
 * process-wide login user: the subject is this object's). The principal must be {@code service/host@REALM}
 * ({@code _HOST} is replaced by this server's host name, lower case, as HBase does), because GSSAPI accepts
 * for a service on a host. The login contacts the KDC, so a wrong principal, a keytab without its key or an
 * unreachable KDC stop the server at start rather than failing every client later.
 */
public final class KerberosLogin {
  private final Subject subject;
  private final String principal;
  private final String service;
  private final String host;

  private KerberosLogin(Subject subject, String principal, String service, String host) {
    this.subject = subject;
    this.principal = principal;
    this.service = service;
    this.host = host;
  }

  /**
   * @param principalKey and {@code keytabKey}: the setting names, for the errors
   * @param hostName this server's host (replaces {@code _HOST})
   */
  public static KerberosLogin fromKeytab(String principalPattern, String keytab, String principalKey,
      String keytabKey, String hostName) throws IOException {
    if (principalPattern.isEmpty()) {
      throw new IOException("hbase.security.authentication is kerberos but " + principalKey + " is not set");
    }
    if (keytab.isEmpty()) {
      throw new IOException("hbase.security.authentication is kerberos but " + keytabKey + " is not set");
    }
    Path file = Path.of(keytab);
    if (!Files.isReadable(file)) {
      throw new IOException(keytabKey + " " + keytab + " does not exist or is not readable");
    }
    String principal = principalPattern.replace("_HOST", canonical(hostName));
    int slash = principal.indexOf('/');
    int at = principal.indexOf('@');
    if (slash <= 0 || at < slash + 2 || at == principal.length() - 1) {
      throw new IOException(principalKey + " " + principal + " is not of the form service/host@REALM "
          + "(a server principal needs its host)");
    }
    Subject subject = new Subject();
    try {
      LoginContext login = new LoginContext("basalt-server", subject, null, keytabConfig(principal, file));
      login.login();
    } catch (LoginException e) {
      throw new IOException("Kerberos login of " + principal + " from keytab " + keytab + " failed: " + e.getMessage(), e);
    }
    return new KerberosLogin(subject, principal, principal.substring(0, slash), principal.substring(slash + 1, at));
  }

  /** The host name a principal's _HOST stands for: the canonical name of the advertised host, lower case. */
  static String canonical(String hostName) {
    try {
      return InetAddress.getByName(hostName).getCanonicalHostName().toLowerCase(Locale.ROOT);
    } catch (IOException e) {
      return hostName.toLowerCase(Locale.ROOT);
    }
  }

  private static Configuration keytabConfig(String principal, Path keytab) {
    Map<String, String> options = Map.of("useKeyTab", "true", "keyTab", keytab.toAbsolutePath().toString(),
        "principal", principal, "storeKey", "true", "doNotPrompt", "true", "useTicketCache", "false",
        "isInitiator", "true", "refreshKrb5Config", "true");
    AppConfigurationEntry entry = new AppConfigurationEntry("com.sun.security.auth.module.Krb5LoginModule",
        AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, options);
    return new Configuration() {
      @Override
      public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
        return new AppConfigurationEntry[] {entry};
      }
    };
  }

  /** Runs {@code action} as this server's principal (GSSAPI finds the keytab's key in the subject). */
  public <T> T doAs(PrivilegedExceptionAction<T> action) throws IOException {
    try {
      return Subject.doAs(subject, action);
    } catch (PrivilegedActionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(cause.getMessage(), cause);
    }
  }

  public String principal() {
    return principal;
  }

  /** The principal's first part ({@code hbase}): the SASL protocol name. */
  public String service() {
    return service;
  }

  /** The principal's host part: the SASL server name. */
  public String host() {
    return host;
  }
}
