package io.basalt.server.regionserver;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.hadoop.hbase.ServerName;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A region server's presence in ZooKeeper ({@code ROOT/servers/<host,port,startcode>}, ephemeral) and the
 * keeper of its {@link ServerLease}: every few seconds it checks that its node still belongs to its current
 * session and extends the lease. When the session is lost the server stops serving (its regions are
 * closed, since the master may act on them), then registers again so the master can give them back.
 */
final class ServerRegistration implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerRegistration.class);

  private final CuratorFramework zk;
  private final String path;
  private final ServerLease lease;
  private final Runnable onSessionLost;
  private final long checkEveryMillis;
  private final Thread keeper;
  private volatile boolean closed;
  private long incarnation;

  ServerRegistration(CuratorFramework zk, String root, ServerName server, ServerLease lease, int sessionTimeoutMillis,
      Runnable onSessionLost) {
    this.zk = zk;
    this.path = root + "/servers/" + server.getServerName();
    this.lease = lease;
    this.onSessionLost = onSessionLost;
    this.checkEveryMillis = Math.max(100, sessionTimeoutMillis / 6);
    this.keeper = new Thread(this::keep, "basalt-lease-keeper");
    keeper.setDaemon(true);
    zk.getConnectionStateListenable().addListener((client, state) -> {
      if (state == ConnectionState.LOST) {
        sessionLost("ZooKeeper session lost");
      }
    });
  }

  void start() throws Exception {
    register();
    keeper.start();
  }

  private synchronized void register() throws Exception {
    long started = lease.nanos();
    zk.delete().quietly().forPath(path);
    zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
        .forPath(path, Long.toString(++incarnation).getBytes(StandardCharsets.UTF_8));
    lease.confirmed(started);
    LOG.info("registered as {}", path);
  }

  private void keep() {
    while (!closed) {
      try {
        TimeUnit.MILLISECONDS.sleep(checkEveryMillis);
        long started = lease.nanos();
        long session = zk.getZookeeperClient().getZooKeeper().getSessionId();
        Stat stat = zk.checkExists().forPath(path);
        if (closed) {
          return;
        }
        if (stat != null && stat.getEphemeralOwner() == session) {
          lease.confirmed(started);
        } else {
          sessionLost("registration " + path + " is gone (session expired)");
          register();
        }
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        // Cannot reach ZooKeeper: the lease runs out on its own if this lasts.
        LOG.debug("lease check failed: {}", e.toString());
      }
    }
  }

  private synchronized void sessionLost(String why) {
    if (closed) {
      return;
    }
    lease.revoke();
    LOG.warn("{}: fencing this server (closing its regions) before registering again", why);
    onSessionLost.run();
  }

  @Override
  public void close() {
    closed = true;
    keeper.interrupt();
    try {
      zk.delete().quietly().forPath(path);
    } catch (Exception e) {
      LOG.debug("could not remove {}: {}", path, e.toString());
    }
  }
}
