package io.basalt.server.standalone;

import io.basalt.server.lifecycle.Resources;
import io.basalt.server.master.Master;
import io.basalt.server.master.MasterNode;
import io.basalt.server.regionserver.RegionServerNode;
import io.basalt.server.security.ClusterSecret;
import io.basalt.server.security.ServerSecurity;
import io.basalt.server.zk.EmbeddedZooKeeper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole cluster of one in one JVM: an embedded ZooKeeper, a master and a region server, data under one
 * directory. The master drives the region server over loopback RPC exactly as in a cluster, so standalone
 * runs the same code paths.
 */
public final class StandaloneServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StandaloneServer.class);

  private final Resources resources = new Resources();
  private final EmbeddedZooKeeper zookeeper;
  private final MasterNode master;
  private final RegionServerNode regionServer;

  public StandaloneServer(StandaloneConfig config) throws IOException, InterruptedException {
    boolean ok = false;
    try {
      Files.createDirectories(config.dataDir());
      zookeeper = track(new EmbeddedZooKeeper(new InetSocketAddress(config.host(), config.zookeeperPort()),
          config.zookeeperDataDir()));
      String zk = zookeeper.connectString();
      // One process: its master and region server share an in-memory secret unless a file is configured.
      ServerSecurity security = track(ServerSecurity.from(config.settings(), ClusterSecret.inProcess(),
          io.basalt.server.security.Authentication.Role.REGION_SERVER, config.host()));
      master = track(new MasterNode(config.masterConfig(zk), () -> LOG.error("the standalone master lost its leadership"),
          security));
      if (!master.awaitActive(60, TimeUnit.SECONDS)) {
        throw new IOException("the master did not become active within 60 s");
      }
      regionServer = track(new RegionServerNode(config.regionServerConfig(zk), security));
      awaitRegionsOpen(60_000);
      LOG.info("Basalt standalone ready: ZooKeeper {}, master {}, region server {}, data in {}",
          zk, master.serverName(), regionServer.serverName(), config.dataDir().toAbsolutePath());
      ok = true;
    } finally {
      if (!ok) {
        close();
      }
    }
  }

  /** Start-up completes once the master has seen the region server and given it its regions. */
  private void awaitRegionsOpen(long timeoutMillis) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!master.master().servers().isLive(regionServer.serverName())) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the master did not see the region server within " + timeoutMillis + " ms");
      }
      Thread.sleep(10);
    }
    master.master().reconcile();
  }

  private <T extends AutoCloseable> T track(T resource) {
    return resources.track(resource);
  }

  public String zookeeperQuorum() {
    return zookeeper.address().getHostString();
  }

  public int zookeeperPort() {
    return zookeeper.address().getPort();
  }

  public InetSocketAddress masterAddress() {
    return master.address();
  }

  public InetSocketAddress regionServerAddress() {
    return regionServer.address();
  }

  public Master master() {
    return master.master();
  }

  public MasterNode masterNode() {
    return master;
  }

  public RegionServerNode regionServerNode() {
    return regionServer;
  }

  /** Closes in reverse order of start: region server (regions closed, logs synced), master, ZooKeeper. */
  @Override
  public void close() {
    resources.close();
  }
}
