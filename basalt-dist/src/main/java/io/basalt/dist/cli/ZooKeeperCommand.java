package io.basalt.dist.cli;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ServerKeys;
import io.basalt.server.config.ZooKeeperKeys;
import io.basalt.server.launch.ZooKeeperMain;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code basalt zookeeper}: a single ZooKeeper server ({@link ZooKeeperMain}) for small installs and tests. */
@Command(name = "zookeeper", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"A single ZooKeeper server (any ZooKeeper ensemble works as well).",
        "Settings not given as options come from the configuration (basalt.host, "
            + "hbase.zookeeper.property.clientPort, hbase.zookeeper.property.dataDir)."})
final class ZooKeeperCommand implements Callable<Integer> {
  @Mixin
  ConfigOptions config;

  @Option(names = "--host", paramLabel = "HOST", description = "Address to bind.")
  String host;

  @Option(names = "--port", paramLabel = "PORT", description = "Client port (default 2181).")
  String port;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "ZooKeeper's data (default <basalt.data.dir>/zookeeper).")
  String dataDir;

  @Override
  public Integer call() throws Exception {
    BasaltConfig c = config.loadAndWarn();
    String dir = dataDir != null ? dataDir : ZooKeeperKeys.dataDir(c).toString();
    List<String> args = new ArrayList<>();
    StandaloneCommand.add(args, "--host", host != null ? host : c.get(ServerKeys.HOST));
    StandaloneCommand.add(args, "--port", port != null ? port : c.get(ZooKeeperKeys.CLIENT_PORT));
    StandaloneCommand.add(args, "--data-dir", dir);
    DataDirGuard.claim(Path.of(dir), "--data-dir or -Dhbase.zookeeper.property.dataDir", false);
    ZooKeeperMain.main(args.toArray(new String[0]));
    return 0;
  }
}
