package io.basalt.server.regionserver;

import io.basalt.server.config.PortRange;
import io.basalt.server.config.ReplicationKeys;
import io.basalt.server.config.RpcKeys;
import io.basalt.server.config.StorageKeys;
import io.basalt.server.rpc.RpcLimits;

import java.nio.file.Path;

/**
 * Where a region server keeps its regions and listens, and how it reaches ZooKeeper. Port 0 picks a free
 * port (tests). {@code sessionTimeoutMillis} bounds how long a paused server can go unnoticed; the server
 * fences itself (serves nothing) once it cannot prove its session is alive. A region is split once its log
 * passes {@code splitBytes} or it holds {@code splitCells} entries (a table's MAX_FILESIZE overrides the
 * size); both checked every {@code splitCheckMillis}. Members of replicated regions listen on ports of
 * {@code replicationPorts} (null: this server hosts none, as in standalone). {@code scanners}: the scanner lease and
 * the cap on one scan call. {@code warmupRounds}: rounds of the region open path run before the server registers
 * ({@link StorageKeys#WARMUP_ROUNDS}). {@code rpc}: handler threads and the largest request ({@link RpcKeys}).
 */
public record RegionServerConfig(Path dataDir, String host, int port, String zookeeper, String root,
    String hbaseZnodeParent, int sessionTimeoutMillis, long cacheBytes, long splitBytes, long splitCells,
    long splitCheckMillis, PortRange replicationPorts, ScannerLimits scanners, int warmupRounds,
    RpcLimits rpc) {
  public static final int DEFAULT_PORT = 16020;
  public static final long DEFAULT_SPLIT_BYTES = 2L << 30;
  public static final long DEFAULT_SPLIT_CELLS = 20_000_000;
  private static final RpcLimits DEFAULT_RPC = new RpcLimits(RpcKeys.REGIONSERVER_HANDLERS.defaultValue(),
      RpcKeys.MAX_REQUEST_SIZE.defaultValue().intValue());

  public static RegionServerConfig defaults(Path dataDir, String zookeeper) {
    return new RegionServerConfig(dataDir, "127.0.0.1", DEFAULT_PORT, zookeeper, "/basalt", "/hbase", 20_000,
        256L << 20, DEFAULT_SPLIT_BYTES, DEFAULT_SPLIT_CELLS, 10_000, ReplicationKeys.PORT_RANGE.defaultValue(),
        ScannerLimits.DEFAULT, StorageKeys.WARMUP_ROUNDS.defaultValue(), DEFAULT_RPC);
  }

  public RegionServerConfig withAddress(String h, int p) {
    return new RegionServerConfig(dataDir, h, p, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis, cacheBytes,
        splitBytes, splitCells, splitCheckMillis, replicationPorts, scanners, warmupRounds, rpc);
  }

  public RegionServerConfig withCacheBytes(long bytes) {
    return new RegionServerConfig(dataDir, host, port, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis, bytes,
        splitBytes, splitCells, splitCheckMillis, replicationPorts, scanners, warmupRounds, rpc);
  }

  public RegionServerConfig withZnodeParent(String parent) {
    return new RegionServerConfig(dataDir, host, port, zookeeper, root, parent, sessionTimeoutMillis, cacheBytes,
        splitBytes, splitCells, splitCheckMillis, replicationPorts, scanners, warmupRounds, rpc);
  }

  public RegionServerConfig withReplicationPorts(PortRange range) {
    return new RegionServerConfig(dataDir, host, port, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis,
        cacheBytes, splitBytes, splitCells, splitCheckMillis, range, scanners, warmupRounds, rpc);
  }

  public RegionServerConfig withSplitThresholds(long bytes, long cells, long checkMillis) {
    return new RegionServerConfig(dataDir, host, port, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis,
        cacheBytes, bytes, cells, checkMillis, replicationPorts, scanners, warmupRounds, rpc);
  }

  public RegionServerConfig withScanners(ScannerLimits limits) {
    return new RegionServerConfig(dataDir, host, port, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis,
        cacheBytes, splitBytes, splitCells, splitCheckMillis, replicationPorts, limits, warmupRounds, rpc);
  }
}
