package io.basalt.dist.cli;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ReplicationKeys;
import io.basalt.server.config.RpcKeys;
import io.basalt.server.config.ScannerKeys;
import io.basalt.server.config.ServerKeys;
import io.basalt.server.config.SplitKeys;
import io.basalt.server.config.StorageKeys;
import io.basalt.server.config.ZooKeeperKeys;
import io.basalt.server.launch.RegionServerMain;
import java.nio.file.Path;
import io.basalt.server.launch.SecurityArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code basalt regionserver}: locks and checks the data directory, then runs {@link RegionServerMain} with
 * the configuration turned into its options (explicit options winning).
 */
@Command(name = "regionserver", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"A region server. Several may run on one machine with different ports and data directories.",
        "Settings not given as options come from the configuration (hbase.zookeeper.quorum, basalt.data.dir, "
            + "basalt.host, hbase.regionserver.port, hbase.regionserver.info.port, basalt.storage.cache.size, "
            + "hbase.hregion.max.filesize, basalt.split.*, zookeeper.session.timeout, basalt.replication.port.range, "
            + "zookeeper.znode.parent, basalt.zookeeper.root, hbase.client.scanner.timeout.period, "
            + "hbase.server.scanner.max.result.size, basalt.storage.warmup.rounds, hbase.regionserver.handler.count, "
            + "hbase.ipc.max.request.size)."})
final class RegionServerCommand implements Callable<Integer> {
  @Mixin
  ConfigOptions config;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]", description = "ZooKeeper connect string.")
  String zookeeper;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "Where this server keeps its regions.")
  String dataDir;

  @Option(names = "--host", paramLabel = "HOST", description = "Address to bind and advertise.")
  String host;

  @Option(names = "--port", paramLabel = "PORT", description = "RPC port (default 16020).")
  String port;

  @Option(names = "--info-port", paramLabel = "PORT",
      description = "Web UI and /metrics port (default 16030; a free one if busy; -1: none).")
  String infoPort;

  @Option(names = "--session-timeout-ms", paramLabel = "MS", description = "ZooKeeper session timeout.")
  String sessionTimeout;

  @Option(names = "--cache-mb", paramLabel = "MB", description = "B+-tree cache size.")
  String cacheMb;

  @Option(names = "--split-size-mb", paramLabel = "MB", description = "Split a region past this log size.")
  String splitSizeMb;

  @Option(names = "--split-cells", paramLabel = "N", description = "Split a region past this many entries.")
  String splitCells;

  @Option(names = "--split-check-ms", paramLabel = "MS", description = "How often to check the split thresholds.")
  String splitCheckMs;

  @Unmatched
  List<String> passThrough = new ArrayList<>();

  List<String> args() {
    BasaltConfig c = settings();
    List<String> out = new ArrayList<>();
    StandaloneCommand.add(out, "--zookeeper", zookeeper != null ? zookeeper : ZooKeeperKeys.connectString(c));
    StandaloneCommand.add(out, "--data-dir", dataDir());
    StandaloneCommand.add(out, "--host", host != null ? host : c.get(ServerKeys.HOST));
    StandaloneCommand.add(out, "--port", port != null ? port : c.get(ServerKeys.REGIONSERVER_PORT));
    StandaloneCommand.add(out, "--info-port", infoPort != null ? infoPort : c.get(ServerKeys.REGIONSERVER_INFO_PORT));
    StandaloneCommand.add(out, "--session-timeout-ms", sessionTimeout != null ? sessionTimeout : c.get(ZooKeeperKeys.SESSION_TIMEOUT));
    StandaloneCommand.add(out, "--cache-mb", cacheMb != null ? cacheMb : Math.max(1, c.get(StorageKeys.CACHE_BYTES) >> 20));
    StandaloneCommand.add(out, "--split-size-mb",
        splitSizeMb != null ? splitSizeMb : Math.max(1, c.get(SplitKeys.MAX_REGION_BYTES) >> 20));
    StandaloneCommand.add(out, "--split-cells", splitCells != null ? splitCells : c.get(SplitKeys.MAX_REGION_CELLS));
    StandaloneCommand.add(out, "--split-check-ms", splitCheckMs != null ? splitCheckMs : c.get(SplitKeys.CHECK_INTERVAL));
    StandaloneCommand.add(out, "--replication-ports", c.get(ReplicationKeys.PORT_RANGE));
    StandaloneCommand.addSettings(out, c, passThrough, ZooKeeperKeys.ZNODE_PARENT, ZooKeeperKeys.BASALT_ROOT,
        ScannerKeys.LEASE, ScannerKeys.MAX_RESULT_SIZE, StorageKeys.WARMUP_ROUNDS, RpcKeys.REGIONSERVER_HANDLERS,
        RpcKeys.MAX_REQUEST_SIZE);
    SecurityArgs.passOn(c, out);
    out.addAll(passThrough); // options of RegionServerMain not listed here; it reports unknown ones
    return out;
  }

  private BasaltConfig loaded;

  /** The configuration, loaded (and its warnings logged) once. */
  private BasaltConfig settings() {
    if (loaded == null) {
      loaded = config.loadAndWarn();
    }
    return loaded;
  }

  private String dataDir() {
    return dataDir != null ? dataDir : settings().get(ServerKeys.DATA_DIR);
  }

  @Override
  public Integer call() throws Exception {
    String[] args = args().toArray(new String[0]);
    DataDirGuard.claim(Path.of(dataDir()), "--data-dir or -Dbasalt.data.dir", true);
    RegionServerMain.main(args);
    return 0;
  }
}
