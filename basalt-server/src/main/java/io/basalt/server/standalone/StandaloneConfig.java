package io.basalt.server.standalone;

import java.nio.file.Path;

/**
 * Where a standalone Basalt keeps its data and listens. Port 0 picks a free port (tests). Defaults are
 * HBase's: ZooKeeper 2181, master 16000, region server 16020.
 */
public record StandaloneConfig(Path dataDir, String host, int zookeeperPort, int masterPort, int regionServerPort,
    long cacheBytes, String zookeeperParent) {
  public static StandaloneConfig defaults(Path dataDir) {
    return new StandaloneConfig(dataDir, "127.0.0.1", 2181, 16000, 16020, 256L << 20, "/hbase");
  }

  public StandaloneConfig withPorts(int zk, int master, int rs) {
    return new StandaloneConfig(dataDir, host, zk, master, rs, cacheBytes, zookeeperParent);
  }
}
