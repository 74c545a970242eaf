package io.basalt.server.zk;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.zookeeper.server.DatadirCleanupManager;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;

/** The real ZooKeeper server, in this JVM, for standalone mode and tests. */
public final class EmbeddedZooKeeper implements AutoCloseable {
  private final ZooKeeperServer server;
  private final ServerCnxnFactory connections;
  private final DatadirCleanupManager cleanup;

  public EmbeddedZooKeeper(InetSocketAddress bind, Path dataDir) throws IOException, InterruptedException {
    FileTxnSnapLog log = new FileTxnSnapLog(dataDir.resolve("version-2-log").toFile(), dataDir.resolve("snapshots").toFile());
    // A session expires at the first tick after its timeout: a 500 ms tick (ZooKeeper's sample config has 2000)
    // notices a dead server within half a second of its timeout rather than two. Sessions stay 4-60 s.
    server = new ZooKeeperServer(log, 500, 4000, 60000, -1, new org.apache.zookeeper.server.ZKDatabase(log), "");
    connections = ServerCnxnFactory.createFactory(bind, 200);
    connections.startup(server);
    // Keep the last 3 snapshots and their logs, purged hourly, so a long-running standalone does not fill its disk.
    cleanup = new DatadirCleanupManager(dataDir.resolve("snapshots").toFile(), dataDir.resolve("version-2-log").toFile(), 3, 1);
    cleanup.start();
  }

  public InetSocketAddress address() {
    return connections.getLocalAddress();
  }

  public String connectString() {
    InetSocketAddress a = address();
    return a.getHostString() + ":" + a.getPort();
  }

  @Override
  public void close() {
    cleanup.shutdown();
    connections.shutdown();
    server.shutdown(true);
  }
}
