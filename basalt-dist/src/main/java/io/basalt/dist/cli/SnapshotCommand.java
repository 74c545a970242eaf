package io.basalt.dist.cli;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ZooKeeperKeys;
import io.basalt.server.master.SnapshotServiceHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code basalt snapshot export SNAPSHOT DIR} and {@code basalt snapshot import DIR}: the backup and restore of a
 * snapshot. An HBase client of the cluster (HBase's ExecProcedureWithRet, signature {@code basalt-snapshot}); the
 * region servers copy the files themselves, so DIR is a path every server and the master see (a mounted backup
 * volume).
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Copies a snapshot out of the cluster (export) or into one (import). Take, list, clone, restore "
        + "and delete snapshots with HBase's Admin API or the shell (snapshot, list_snapshots, clone_snapshot, "
        + "restore_snapshot, delete_snapshot)."},
    subcommands = {SnapshotCommand.Export.class, SnapshotCommand.Import.class})
final class SnapshotCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** What both subcommands share: where the cluster is and how long to wait. */
  static final class Target {
    @Mixin
    ConfigOptions config;

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]", description = "ZooKeeper connect string.")
    String zookeeper;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "3600",
        description = "Give up after this long (the copy runs at disk speed: about 100 MB/s).")
    int timeoutSeconds;

    String call(String instance, Map<String, String> args) {
      BasaltConfig c = config.load();
      String quorum = zookeeper != null ? zookeeper : ZooKeeperKeys.connectString(c);
      Configuration conf = ClusterAdmin.configuration(quorum, c.get(ZooKeeperKeys.ZNODE_PARENT), timeoutSeconds);
      // One call copies the whole snapshot: it may take as long as the command is allowed to.
      conf.setInt("hbase.rpc.timeout", timeoutSeconds * 1000);
      conf.setInt("hbase.client.retries.number", 1);
      try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
        byte[] out = admin.execProcedureWithReturn(SnapshotServiceHandler.SIGNATURE, instance, args);
        return out == null ? "" : new String(out, StandardCharsets.UTF_8);
      } catch (Exception e) {
        throw new CliFailure("cannot " + instance + " through ZooKeeper " + quorum + ": " + firstLine(e));
      }
    }

    private static String firstLine(Exception e) {
      String m = String.valueOf(e.getMessage());
      int nl = m.indexOf('\n');
      return nl < 0 ? m : m.substring(0, nl);
    }
  }

  @Command(name = "export", mixinStandardHelpOptions = true, versionProvider = Version.class,
      description = "Copies SNAPSHOT's files and manifest into DIR (empty or missing), read back by basalt snapshot import.")
  static final class Export implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Target target;

    @Parameters(index = "0", paramLabel = "SNAPSHOT")
    String snapshot;

    @Parameters(index = "1", paramLabel = "DIR")
    Path dir;

    @Override
    public Integer call() {
      long start = System.nanoTime();
      String bytes = target.call("export", Map.of("snapshot", snapshot, "dir", dir.toAbsolutePath().toString()));
      spec.commandLine().getOut().printf("exported snapshot %s to %s: %s bytes in %.1f s%n", snapshot,
          dir.toAbsolutePath(), bytes, (System.nanoTime() - start) / 1e9);
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  @Command(name = "import", mixinStandardHelpOptions = true, versionProvider = Version.class,
      description = "Brings the snapshot exported to DIR into this cluster under its name; clone_snapshot then makes "
          + "a table of it.")
  static final class Import implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Target target;

    @Parameters(index = "0", paramLabel = "DIR")
    Path dir;

    @Override
    public Integer call() {
      String name = target.call("import", Map.of("dir", dir.toAbsolutePath().toString()));
      spec.commandLine().getOut().printf("imported snapshot %s from %s%n", name, dir.toAbsolutePath());
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
