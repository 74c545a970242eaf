package io.basalt.server.regionserver;

import java.nio.file.Path;

/**
 * Where a region server keeps its regions and listens, and how it reaches ZooKeeper. Port 0 picks a free
 * port (tests). {@code sessionTimeoutMillis} bounds how long a paused server can go unnoticed; the server
 * fences itself (serves nothing) once it cannot prove its session is alive.
 */
public record RegionServerConfig(Path dataDir, String host, int port, String zookeeper, String root,
    String hbaseZnodeParent, int sessionTimeoutMillis, long cacheBytes) {
  public static final int DEFAULT_PORT = 16020;

  public static RegionServerConfig defaults(Path dataDir, String zookeeper) {
    return new RegionServerConfig(dataDir, "127.0.0.1", DEFAULT_PORT, zookeeper, "/basalt", "/hbase", 20_000, 256L << 20);
  }

  public RegionServerConfig withPort(int p) {
    return new RegionServerConfig(dataDir, host, p, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis, cacheBytes);
  }

  public RegionServerConfig withSessionTimeout(int millis) {
    return new RegionServerConfig(dataDir, host, port, zookeeper, root, hbaseZnodeParent, millis, cacheBytes);
  }

  public RegionServerConfig withCacheBytes(long bytes) {
    return new RegionServerConfig(dataDir, host, port, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis, bytes);
  }
}
