package io.basalt.dist.cli;

import io.basalt.server.config.BalancerKeys;
import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ReplicationKeys;
import io.basalt.server.config.RpcKeys;
import io.basalt.server.config.ServerKeys;
import io.basalt.server.config.ZooKeeperKeys;
import io.basalt.server.launch.MasterMain;
import io.basalt.server.launch.SecurityArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/** {@code basalt master}: the configuration turned into {@link MasterMain}'s options, explicit options winning. */
@Command(name = "master", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"A master. Run several against one ZooKeeper: one is active, the others stand by and take over.",
        "Settings not given as options come from the configuration (hbase.zookeeper.quorum, basalt.host, "
            + "hbase.master.port, zookeeper.session.timeout, hbase.master.info.port, hbase.balancer.period, "
            + "basalt.balancer.move.pause, basalt.replication.factor, "
            + "basalt.replication.rereplicate.after, zookeeper.znode.parent, basalt.zookeeper.root, "
            + "hbase.master.handler.count, hbase.ipc.max.request.size)."})
final class MasterCommand implements Callable<Integer> {
  @Mixin
  ConfigOptions config;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]", description = "ZooKeeper connect string.")
  String zookeeper;

  @Option(names = "--host", paramLabel = "HOST", description = "Address to bind and advertise.")
  String host;

  @Option(names = "--port", paramLabel = "PORT", description = "RPC port (default 16000).")
  String port;

  @Option(names = "--session-timeout-ms", paramLabel = "MS", description = "ZooKeeper session timeout.")
  String sessionTimeout;

  @Option(names = "--info-port", paramLabel = "PORT", description = "Web UI and /metrics port (default 16010; -1: none).")
  String infoPort;

  @Option(names = "--balancer-period-ms", paramLabel = "MS", description = "How often the balancer runs.")
  String balancerPeriod;

  @Option(names = "--balance-pause-ms", paramLabel = "MS", description = "Pause between two moves of a balancer run.")
  String balancePause;

  @Unmatched
  List<String> passThrough = new ArrayList<>();

  List<String> args() {
    BasaltConfig c = config.loadAndWarn();
    List<String> out = new ArrayList<>();
    StandaloneCommand.add(out, "--zookeeper", zookeeper != null ? zookeeper : ZooKeeperKeys.connectString(c));
    StandaloneCommand.add(out, "--host", host != null ? host : c.get(ServerKeys.HOST));
    StandaloneCommand.add(out, "--port", port != null ? port : c.get(ServerKeys.MASTER_PORT));
    StandaloneCommand.add(out, "--session-timeout-ms", sessionTimeout != null ? sessionTimeout : c.get(ZooKeeperKeys.SESSION_TIMEOUT));
    StandaloneCommand.add(out, "--info-port", infoPort != null ? infoPort : c.get(ServerKeys.MASTER_INFO_PORT));
    StandaloneCommand.add(out, "--balancer-period-ms", balancerPeriod != null ? balancerPeriod : c.get(BalancerKeys.PERIOD));
    StandaloneCommand.add(out, "--balance-pause-ms", balancePause != null ? balancePause : c.get(BalancerKeys.MOVE_PAUSE));
    StandaloneCommand.add(out, "--replication-factor", c.get(ReplicationKeys.FACTOR));
    StandaloneCommand.add(out, "--rereplicate-after-ms", c.get(ReplicationKeys.REREPLICATE_AFTER));
    StandaloneCommand.addSettings(out, c, passThrough, ZooKeeperKeys.ZNODE_PARENT, ZooKeeperKeys.BASALT_ROOT,
        RpcKeys.MASTER_HANDLERS, RpcKeys.MAX_REQUEST_SIZE);
    SecurityArgs.passOn(c, out);
    out.addAll(passThrough); // options of MasterMain not listed here; it reports unknown ones
    return out;
  }

  @Override
  public Integer call() throws Exception {
    MasterMain.main(args().toArray(new String[0]));
    return 0;
  }
}
