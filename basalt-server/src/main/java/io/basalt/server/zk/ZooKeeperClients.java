package io.basalt.server.zk;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.client.ZKClientConfig;

/** Connected Curator clients with the session timeout the caller fences on. */
public final class ZooKeeperClients {
  private ZooKeeperClients() {}

  public static CuratorFramework connect(String connectString, int sessionTimeoutMillis) throws IOException {
    return connect(connectString, sessionTimeoutMillis, ZooKeeperClientSettings.plain());
  }

  /** {@code settings}: ZooKeeper's client properties (TLS), see {@link ZooKeeperClientSettings}. */
  public static CuratorFramework connect(String connectString, int sessionTimeoutMillis, ZKClientConfig settings)
      throws IOException {
    return connect(connectString, sessionTimeoutMillis, settings, null);
  }

  /** As above; {@code acls}: the ACLs of the znodes it creates ({@link SecureZnodeAcls}), null for open ones. */
  public static CuratorFramework connect(String connectString, int sessionTimeoutMillis, ZKClientConfig settings,
      org.apache.curator.framework.api.ACLProvider acls) throws IOException {
    CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
    if (acls != null) {
      builder.aclProvider(acls);
    }
    CuratorFramework zk = builder.connectString(connectString).zkClientConfig(settings)
        .sessionTimeoutMs(sessionTimeoutMillis).connectionTimeoutMs(Math.min(10_000, sessionTimeoutMillis))
        .retryPolicy(new ExponentialBackoffRetry(200, 5))
        // A short disconnection (SUSPENDED) is not a lost session: leadership and registrations end only when
        // ZooKeeper expires the session, the same moment the others learn of it.
        .connectionStateErrorPolicy(new SessionConnectionStateErrorPolicy()).build();
    zk.start();
    try {
      if (!zk.blockUntilConnected(30, TimeUnit.SECONDS)) {
        zk.close();
        throw new IOException("cannot connect to ZooKeeper at " + connectString + " within 30 s"
            + (settings.getBoolean(ZKClientConfig.SECURE_CLIENT) ? " over TLS (is it ZooKeeper's secure client port, "
            + "and does it trust our certificate?)" : ""));
      }
    } catch (InterruptedException e) {
      zk.close();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting to ZooKeeper", e);
    }
    return zk;
  }
}
