package io.basalt.server.master;

/**
 * Where a master listens and how it reaches ZooKeeper. Port 0 picks a free port (tests). Several masters
 * may run against one ZooKeeper: one is elected active, the others stand by.
 */
public record MasterConfig(String host, int port, String zookeeper, String root, String hbaseZnodeParent,
    int sessionTimeoutMillis) {
  public static final int DEFAULT_PORT = 16000;

  public static MasterConfig defaults(String zookeeper) {
    return new MasterConfig("127.0.0.1", DEFAULT_PORT, zookeeper, "/basalt", "/hbase", 20_000);
  }

  public MasterConfig withPort(int p) {
    return new MasterConfig(host, p, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis);
  }

  public MasterConfig withSessionTimeout(int millis) {
    return new MasterConfig(host, port, zookeeper, root, hbaseZnodeParent, millis);
  }
}
