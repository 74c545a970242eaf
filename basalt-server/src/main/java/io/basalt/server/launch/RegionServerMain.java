package io.basalt.server.launch;

import io.basalt.server.security.Authentication;
import io.basalt.server.config.ReplicationKeys;
import io.basalt.server.config.RpcKeys;
import io.basalt.server.config.ZooKeeperKeys;
import io.basalt.server.config.ScannerKeys;
import io.basalt.server.config.StorageKeys;
import io.basalt.server.regionserver.RegionServerConfig;
import io.basalt.server.regionserver.RegionServerNode;
import io.basalt.server.regionserver.ScannerLimits;
import io.basalt.server.rpc.RpcLimits;
import io.basalt.server.status.StatusServer;
import java.net.BindException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code basalt regionserver --zookeeper HOST:PORT --data-dir DIR [--host H] [--port P]
 * [--session-timeout-ms N] [--cache-mb N] [--split-size-mb N] [--split-cells N] [--split-check-ms N]
 * [--replication-ports FIRST-LAST]}: one
 * region server; run several per machine with different ports and data directories.
 */
public final class RegionServerMain {
  private RegionServerMain() {}

  private static final String ROOT = "--" + ZooKeeperKeys.BASALT_ROOT.name();
  private static final String PARENT = "--" + ZooKeeperKeys.ZNODE_PARENT.name();
  private static final String HANDLERS = "--" + RpcKeys.REGIONSERVER_HANDLERS.name();
  private static final String MAX_REQUEST = "--" + RpcKeys.MAX_REQUEST_SIZE.name();

  public static void main(String[] argv) throws Exception {
    Set<String> options = new HashSet<>(Set.of("--zookeeper", "--data-dir", "--host", "--port", "--session-timeout-ms",
        "--cache-mb", "--split-size-mb", "--split-cells", "--split-check-ms", "--info-port", "--replication-ports",
        "--" + ScannerKeys.LEASE.name(), "--" + ScannerKeys.MAX_RESULT_SIZE.name(),
        "--" + StorageKeys.WARMUP_ROUNDS.name(), HANDLERS, MAX_REQUEST, ROOT, PARENT));
    options.addAll(SecurityArgs.options());
    Args a = Args.parse("regionserver", argv, options,
        Map.of("--hbase.zookeeper.quorum", "--zookeeper", "--hbase.regionserver.port", "--port",
            "--hbase.regionserver.info.port", "--info-port", "--basalt.replication.port.range", "--replication-ports"));
    RegionServerConfig d = RegionServerConfig.defaults(Path.of("data"), "127.0.0.1:2181");
    RegionServerConfig config = new RegionServerConfig(a.path("--data-dir", d.dataDir()), a.string("--host", d.host()),
        a.port("--port", d.port()), a.string("--zookeeper", d.zookeeper()),
        a.value(ROOT, ZooKeeperKeys.BASALT_ROOT, d.root()),
        a.value(PARENT, ZooKeeperKeys.ZNODE_PARENT, d.hbaseZnodeParent()),
        a.positive("--session-timeout-ms", d.sessionTimeoutMillis()),
        (long) a.positive("--cache-mb", (int) (d.cacheBytes() >> 20)) << 20,
        (long) a.positive("--split-size-mb", (int) (d.splitBytes() >> 20)) << 20,
        a.positive("--split-cells", (int) d.splitCells()), a.positive("--split-check-ms", (int) d.splitCheckMillis()),
        a.value("--replication-ports", ReplicationKeys.PORT_RANGE, d.replicationPorts()),
        new ScannerLimits(a.value("--" + ScannerKeys.LEASE.name(), ScannerKeys.LEASE, d.scanners().leaseMillis()),
            a.value("--" + ScannerKeys.MAX_RESULT_SIZE.name(), ScannerKeys.MAX_RESULT_SIZE,
                d.scanners().maxResultBytes())),
        a.value("--" + StorageKeys.WARMUP_ROUNDS.name(), StorageKeys.WARMUP_ROUNDS, d.warmupRounds()),
        new RpcLimits(a.value(HANDLERS, RpcKeys.REGIONSERVER_HANDLERS, d.rpc().handlers()),
            a.value(MAX_REQUEST, RpcKeys.MAX_REQUEST_SIZE, (long) d.rpc().maxRequestBytes()).intValue()));
    RegionServerNode node;
    try {
      node = new RegionServerNode(config, SecurityArgs.build(a, Authentication.Role.REGION_SERVER, config.host()));
    } catch (BindException e) {
      a.fail("port " + config.port() + " is in use (" + e.getMessage() + "); choose another with --port");
      return;
    }
    int infoPort = a.infoPort("--info-port", 16030);
    AutoCloseable web = infoPort < 0 ? () -> { } : StatusServer.regionServer(node, config.host(), infoPort);
    Daemon.runUntilStopped(() -> {
      web.close();
      node.close();
    }, "Basalt region server " + node.serverName() + " is up, data in "
        + config.dataDir().toAbsolutePath());
  }
}
