package io.basalt.server.launch;

import io.basalt.server.zk.EmbeddedZooKeeper;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * {@code basalt zookeeper [--host H] [--port P] [--data-dir DIR]}: a single ZooKeeper server for tests and
 * small installs (any real ZooKeeper ensemble works as well).
 */
public final class ZooKeeperMain {
  private ZooKeeperMain() {}

  public static void main(String[] argv) throws Exception {
    Args a = Args.parse("zookeeper", argv, Set.of("--host", "--port", "--data-dir"),
        Map.of("--hbase.zookeeper.property.clientPort", "--port"));
    InetSocketAddress bind = new InetSocketAddress(a.string("--host", "127.0.0.1"), a.port("--port", 2181));
    EmbeddedZooKeeper zk;
    try {
      zk = new EmbeddedZooKeeper(bind, a.path("--data-dir", Path.of("data", "zookeeper")));
    } catch (BindException e) {
      a.fail("port " + bind.getPort() + " is in use (" + e.getMessage() + "); choose another with --port");
      return;
    }
    Daemon.runUntilStopped(zk, "ZooKeeper is up at " + zk.connectString());
  }
}
