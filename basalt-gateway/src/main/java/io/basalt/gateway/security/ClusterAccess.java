package io.basalt.gateway.security;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.apache.hadoop.security.authorize.ProxyUsers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a gateway reaches the cluster, and as whom. With {@code hbase.security.authentication=kerberos} the gateway
 * logs in from its own keytab (HBase's per-gateway principal and keytab keys) and its HBase client authenticates
 * with that; TLS toward the cluster is the client's own {@code hbase.client.netty.tls.*} settings, which reach it
 * with the rest of the configuration. A request made for an end user (the SASL or SPNEGO user, or a REST
 * {@code doAs}) runs on a connection of its own whose user is a Hadoop proxy user (that end user, real user the
 * gateway), so the cluster applies its ACLs to the end user, as HBase's ConnectionCache does. Connections idle
 * longer than the max idle time are closed.
 *
 * <p>The user is per thread ({@link #actAs}): both gateways serve a request on one worker thread.
 */
public final class ClusterAccess implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterAccess.class);
  private static final ThreadLocal<String> EFFECTIVE_USER = new ThreadLocal<>();

  private record Open(Connection connection, long[] lastUse) {}

  private final Configuration conf;
  private final UserGroupInformation login;
  private final User gateway;
  private final Connection own;
  private final Map<String, Open> byUser = new HashMap<>(); // guarded by itself
  private final ScheduledExecutorService janitor;
  private final long maxIdleNanos;
  private final Connection current;

  private ClusterAccess(Configuration conf, UserGroupInformation login, User gateway, long maxIdleMillis)
      throws IOException {
    this.conf = conf;
    this.login = login;
    this.gateway = gateway;
    this.own = ConnectionFactory.createConnection(conf, gateway);
    this.maxIdleNanos = TimeUnit.MILLISECONDS.toNanos(maxIdleMillis);
    ProxyUsers.refreshSuperUserGroupsConfiguration(conf); // Hadoop's rules are process-wide, read once
    this.janitor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gateway-connection-janitor");
      t.setDaemon(true);
      return t;
    });
    long period = Math.max(1_000, Math.min(60_000, maxIdleMillis / 2));
    janitor.scheduleWithFixedDelay(this::closeIdle, period, period, TimeUnit.MILLISECONDS);
    this.current = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          if (method.getName().equals("close") && method.getParameterCount() == 0) {
            return null; // the gateway closes the real connections, never a request
          }
          try {
            return method.invoke(connectionFor(EFFECTIVE_USER.get()), args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  /**
   * Logs in if the cluster needs Kerberos ({@code principalKey}, {@code keytabKey}: the gateway's HBase keys;
   * {@code _HOST} becomes {@code host}'s canonical name) and opens the gateway's own connection. A login that
   * cannot be made stops the gateway.
   */
  public static ClusterAccess open(Configuration conf, String principalKey, String keytabKey, String host,
      String maxIdleKey) throws IOException {
    long maxIdle = conf.getLong(maxIdleKey, 600_000);
    if (!User.isHBaseSecurityEnabled(conf)) {
      return new ClusterAccess(conf, null, User.getCurrent(), maxIdle);
    }
    String principal = conf.get(principalKey, "");
    String keytab = conf.get(keytabKey, "");
    if (principal.isEmpty() || keytab.isEmpty()) {
      throw new IOException("hbase.security.authentication is kerberos but " + (principal.isEmpty() ? principalKey
          : keytabKey) + " is not set: the gateway needs its own principal and keytab");
    }
    if (conf.get("hadoop.security.authentication") == null) {
      conf.set("hadoop.security.authentication", "kerberos");
    }
    UserGroupInformation.setConfiguration(conf); // Hadoop's UGI is process-wide: a gateway is one process
    String resolved = principal.replace("_HOST", canonical(host));
    UserGroupInformation ugi;
    try {
      ugi = UserGroupInformation.loginUserFromKeytabAndReturnUGI(resolved, keytab);
    } catch (IOException e) {
      throw new IOException("Kerberos login of " + resolved + " from " + keytabKey + " " + keytab + " failed: "
          + e.getMessage(), e);
    }
    LOG.info("logged in to Kerberos as {}", resolved);
    return new ClusterAccess(conf, ugi, User.create(ugi), maxIdle);
  }

  /** The canonical name of the host a principal's {@code _HOST} stands for (this machine's for a wildcard). */
  public static String canonical(String host) {
    try {
      InetAddress a = host == null || host.isEmpty() || host.equals("0.0.0.0") ? InetAddress.getLocalHost()
          : InetAddress.getByName(host);
      return a.getCanonicalHostName().toLowerCase(Locale.ROOT);
    } catch (IOException e) {
      return host.toLowerCase(Locale.ROOT);
    }
  }

  /** The gateway's Kerberos login (to accept SASL or SPNEGO with its keys), or null without Kerberos. */
  public UserGroupInformation login() {
    return login;
  }

  /** A connection that is, on every call, the one of the user this thread acts for. */
  public Connection connection() {
    return current;
  }

  /** From now on this thread's calls act for {@code user} (a short name), or for the gateway itself if null. */
  public static void actAs(String user) {
    if (user == null) {
      EFFECTIVE_USER.remove();
    } else {
      EFFECTIVE_USER.set(user);
    }
  }

  /**
   * Hadoop's proxy-user check at the gateway (HBase's REST server makes it before a {@code doAs}): may
   * {@code realUser}, who authenticated from {@code from}, act for {@code doAsUser}? The cluster checks again.
   */
  public void authorizeProxy(String realUser, String doAsUser, String from) throws AuthorizationException {
    UserGroupInformation proxy = UserGroupInformation.createProxyUser(doAsUser,
        UserGroupInformation.createRemoteUser(realUser));
    ProxyUsers.authorize(proxy, from);
  }

  private Connection connectionFor(String user) throws IOException {
    if (user == null || user.equals(gateway.getShortName())) {
      return own;
    }
    // One lock with closeIdle, so a connection just handed out is never one being closed as idle.
    synchronized (byUser) {
      Open open = byUser.get(user);
      if (open == null) {
        UserGroupInformation proxy = UserGroupInformation.createProxyUser(user, gateway.getUGI());
        open = new Open(ConnectionFactory.createConnection(conf, User.create(proxy)), new long[1]);
        byUser.put(user, open);
      }
      open.lastUse[0] = System.nanoTime();
      return open.connection;
    }
  }

  private void closeIdle() {
    long now = System.nanoTime();
    synchronized (byUser) {
      byUser.entrySet().removeIf(e -> {
        if (now - e.getValue().lastUse[0] <= maxIdleNanos) {
          return false;
        }
        closeQuietly(e.getValue().connection);
        return true;
      });
    }
  }

  /** Connections open for end users (the gateway's own not counted). */
  public int userConnections() {
    synchronized (byUser) {
      return byUser.size();
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (IOException e) {
      LOG.warn("closing a user's connection: {}", e.toString());
    }
  }

  @Override
  public void close() throws IOException {
    janitor.shutdownNow();
    synchronized (byUser) {
      byUser.values().forEach(o -> closeQuietly(o.connection));
      byUser.clear();
    }
    own.close();
  }
}
