package io.basalt.server.zk;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ConfigKey;
import io.basalt.server.config.SecurityKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * The ZooKeeper client settings of Basalt's servers, read as HBase 2.6 reads them (ZKConfig.getZKClientConfig):
 * {@code hbase.zookeeper.property.X} is ZooKeeper's client property {@code zookeeper.X}. Basalt reads the TLS ones
 * ({@link SecurityKeys}{@code .ZK_*}); anything else still comes from the JVM's {@code zookeeper.*} system
 * properties, which ZooKeeper's client reads itself. A setting that cannot work stops the server here rather than
 * as a connection timeout later.
 */
public final class ZooKeeperClientSettings {
  private static final String HBASE_PREFIX = "hbase.zookeeper.property.";
  private static final String NETTY_SOCKET = "org.apache.zookeeper.ClientCnxnSocketNetty";
  private static final List<ConfigKey<String>> PASSED_ON = List.of(SecurityKeys.ZK_CLIENT_CNXN_SOCKET,
      SecurityKeys.ZK_SSL_KEYSTORE_LOCATION, SecurityKeys.ZK_SSL_KEYSTORE_PASSWORD, SecurityKeys.ZK_SSL_KEYSTORE_TYPE,
      SecurityKeys.ZK_SSL_TRUSTSTORE_LOCATION, SecurityKeys.ZK_SSL_TRUSTSTORE_PASSWORD,
      SecurityKeys.ZK_SSL_TRUSTSTORE_TYPE, SecurityKeys.ZK_SSL_HOSTNAME_VERIFICATION);

  private ZooKeeperClientSettings() {}

  /** ZooKeeper's defaults and the JVM's system properties only (standalone, tests). */
  public static ZKClientConfig plain() {
    return new ZKClientConfig();
  }

  public static ZKClientConfig from(BasaltConfig c) throws IOException {
    ZKClientConfig out = new ZKClientConfig();
    for (ConfigKey<String> key : PASSED_ON) {
      if (c.isSet(key) && !c.get(key).isEmpty()) {
        out.setProperty(zookeeperName(key), c.get(key));
      }
    }
    if (c.isSet(SecurityKeys.ZK_CLIENT_SECURE)) {
      out.setProperty(zookeeperName(SecurityKeys.ZK_CLIENT_SECURE), Boolean.toString(c.get(SecurityKeys.ZK_CLIENT_SECURE)));
    }
    if (out.getBoolean(ZKClientConfig.SECURE_CLIENT)) {
      String socket = out.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET);
      if (!NETTY_SOCKET.equals(socket)) {
        throw new IOException(SecurityKeys.ZK_CLIENT_SECURE.name() + " is true but "
            + SecurityKeys.ZK_CLIENT_CNXN_SOCKET.name() + " is " + (socket == null ? "not set" : socket)
            + ": ZooKeeper's client speaks TLS only with " + NETTY_SOCKET);
      }
    }
    for (ConfigKey<String> store : List.of(SecurityKeys.ZK_SSL_KEYSTORE_LOCATION,
        SecurityKeys.ZK_SSL_TRUSTSTORE_LOCATION)) {
      String location = c.get(store);
      if (!location.isEmpty() && !Files.isReadable(Path.of(location))) {
        throw new IOException(store.name() + " " + location + " is not a readable file");
      }
    }
    return out;
  }

  /**
   * With {@code basalt.zookeeper.secure.acls}: whether this JVM has the JAAS section ZooKeeper's client logs in with
   * (SASL); without it the creator-only ACLs could not be satisfied, so the server refuses to start.
   */
  public static boolean secureAcls(BasaltConfig c, ZKClientConfig client) throws IOException {
    if (!c.get(SecurityKeys.ZK_SECURE_ACLS)) {
      return false;
    }
    String section = client.getProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, ZKClientConfig.LOGIN_CONTEXT_NAME_KEY_DEFAULT);
    boolean found;
    try {
      found = System.getProperty("java.security.auth.login.config") != null
          && javax.security.auth.login.Configuration.getConfiguration().getAppConfigurationEntry(section) != null;
    } catch (SecurityException e) {
      found = false;
    }
    if (!found) {
      throw new IOException(SecurityKeys.ZK_SECURE_ACLS.name() + " is true but this JVM has no JAAS section '" + section
          + "' for ZooKeeper's SASL login (-Djava.security.auth.login.config=FILE in BASALT_JAVA_OPTS)");
    }
    return true;
  }

  /** {@code hbase.zookeeper.property.ssl.keyStore.location} is ZooKeeper's {@code zookeeper.ssl.keyStore.location}. */
  static String zookeeperName(ConfigKey<?> key) {
    return "zookeeper." + key.name().substring(HBASE_PREFIX.length());
  }
}
