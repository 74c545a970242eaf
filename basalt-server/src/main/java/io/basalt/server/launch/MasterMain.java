package io.basalt.server.launch;

import io.basalt.server.security.Authentication;
import io.basalt.server.config.ReplicationKeys;
import io.basalt.server.config.RpcKeys;
import io.basalt.server.config.ZooKeeperKeys;
import io.basalt.server.master.MasterConfig;
import io.basalt.server.master.MasterNode;
import io.basalt.server.rpc.RpcLimits;
import io.basalt.server.status.StatusServer;
import java.net.BindException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code basalt master --zookeeper HOST:PORT [--host H] [--port P] [--session-timeout-ms N]
 * [--balancer-period-ms N] [--balance-pause-ms N] [--replication-factor N] [--rereplicate-after-ms N]}: one master;
 * the first one up becomes active, later ones stand by and take over when it dies.
 */
public final class MasterMain {
  private MasterMain() {}

  private static final String ROOT = "--" + ZooKeeperKeys.BASALT_ROOT.name();
  private static final String PARENT = "--" + ZooKeeperKeys.ZNODE_PARENT.name();
  private static final String HANDLERS = "--" + RpcKeys.MASTER_HANDLERS.name();
  private static final String MAX_REQUEST = "--" + RpcKeys.MAX_REQUEST_SIZE.name();

  public static void main(String[] argv) throws Exception {
    Set<String> options = new HashSet<>(Set.of("--zookeeper", "--host", "--port", "--session-timeout-ms",
        "--balancer-period-ms", "--balance-pause-ms", "--info-port", "--replication-factor",
        "--rereplicate-after-ms", HANDLERS, MAX_REQUEST, ROOT, PARENT));
    options.addAll(SecurityArgs.options());
    Args a = Args.parse("master", argv, options,
        Map.of("--hbase.zookeeper.quorum", "--zookeeper", "--hbase.master.port", "--port",
            "--hbase.master.info.port", "--info-port", "--basalt.replication.factor", "--replication-factor",
            "--basalt.replication.rereplicate.after", "--rereplicate-after-ms"));
    MasterConfig d = MasterConfig.defaults("127.0.0.1:2181");
    MasterConfig config = new MasterConfig(a.string("--host", d.host()), a.port("--port", d.port()),
        a.string("--zookeeper", d.zookeeper()), a.value(ROOT, ZooKeeperKeys.BASALT_ROOT, d.root()),
        a.value(PARENT, ZooKeeperKeys.ZNODE_PARENT, d.hbaseZnodeParent()),
        a.positive("--session-timeout-ms", d.sessionTimeoutMillis()),
        a.positive("--balancer-period-ms", (int) d.balancerPeriodMillis()),
        a.positive("--balance-pause-ms", (int) d.balancePauseMillis()),
        true, a.value("--replication-factor", ReplicationKeys.FACTOR, d.replicationFactor()),
        a.value("--rereplicate-after-ms", ReplicationKeys.REREPLICATE_AFTER, d.rereplicateAfterMillis()),
        new RpcLimits(a.value(HANDLERS, RpcKeys.MASTER_HANDLERS, d.rpc().handlers()),
            a.value(MAX_REQUEST, RpcKeys.MAX_REQUEST_SIZE, (long) d.rpc().maxRequestBytes()).intValue()));
    MasterNode node;
    try {
      node = new MasterNode(config, () -> Daemon.halt("this master lost its leadership"),
          SecurityArgs.build(a, Authentication.Role.MASTER, config.host()));
    } catch (BindException e) {
      a.fail("port " + config.port() + " is in use (" + e.getMessage() + "); choose another with --port");
      return;
    }
    int infoPort = a.infoPort("--info-port", 16010);
    AutoCloseable web = infoPort < 0 ? () -> { } : StatusServer.master(node, config.host(), infoPort);
    Daemon.runUntilStopped(() -> {
      web.close();
      node.close();
    }, "Basalt master " + node.serverName() + " is up (ZooKeeper " + config.zookeeper() + ")");
  }
}
