package io.basalt.dist.cli;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ConfigArgs;
import io.basalt.server.config.ConfigKey;
import io.basalt.server.config.InvalidConfigException;
import io.basalt.server.config.ServerKeys;
import io.basalt.server.standalone.StandaloneMain;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code basalt standalone}: checks the data directory, then runs {@link StandaloneMain}. */
@Command(name = "standalone", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"ZooKeeper, a master and a region server in one process, as a standalone HBase: ZooKeeper 2181, "
        + "master 16000, region server 16020, web UI and /metrics on 16010.",
        "Stop it with Ctrl-C or SIGTERM: regions close cleanly."})
final class StandaloneCommand implements Callable<Integer> {
  @Mixin
  ConfigOptions config;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "Same as -Dbasalt.data.dir=DIR (default ./data).")
  String dataDir;

  @Option(names = "--host", paramLabel = "HOST", description = "Same as -Dbasalt.host=HOST (default 127.0.0.1).")
  String host;

  @Option(names = "--zookeeper-port", paramLabel = "PORT", description = "Same as -Dhbase.zookeeper.property.clientPort.")
  String zookeeperPort;

  @Option(names = "--master-port", paramLabel = "PORT", description = "Same as -Dhbase.master.port.")
  String masterPort;

  @Option(names = "--regionserver-port", paramLabel = "PORT", description = "Same as -Dhbase.regionserver.port.")
  String regionServerPort;

  @Option(names = "--info-port", paramLabel = "PORT", description = "Same as -Dhbase.master.info.port (-1: no web UI).")
  String infoPort;

  List<String> args() {
    List<String> out = new ArrayList<>(config.asArgs());
    add(out, "--data-dir", dataDir);
    add(out, "--host", host);
    add(out, "--zookeeper-port", zookeeperPort);
    add(out, "--master-port", masterPort);
    add(out, "--regionserver-port", regionServerPort);
    add(out, "--info-port", infoPort);
    return out;
  }

  static void add(List<String> out, String option, Object value) {
    if (value != null) {
      out.add(option);
      out.add(value.toString());
    }
  }

  /**
   * Each setting as {@code --NAME VALUE} (a launcher option named after its key), unless {@code passThrough} gives it
   * already.
   */
  static void addSettings(List<String> out, BasaltConfig c, List<String> passThrough, ConfigKey<?>... keys) {
    for (ConfigKey<?> key : keys) {
      if (!passThrough.contains("--" + key.name())) {
        add(out, "--" + key.name(), c.get(key));
      }
    }
  }

  @Override
  public Integer call() throws Exception {
    String[] args = args().toArray(new String[0]);
    BasaltConfig settings;
    try {
      settings = ConfigArgs.loadStrict(args, StandaloneMain.ALIASES);
    } catch (InvalidConfigException | IllegalArgumentException e) {
      throw new CliFailure(e.getMessage());
    }
    DataDirGuard.claim(Path.of(settings.get(ServerKeys.DATA_DIR)), "--data-dir or -Dbasalt.data.dir", true);
    StandaloneMain.main(args);
    return 0;
  }
}
