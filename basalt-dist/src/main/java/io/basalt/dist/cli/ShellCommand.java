package io.basalt.dist.cli;

import io.basalt.gateway.shell.BasaltShell;
import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ZooKeeperKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code basalt shell}: HBase's shell language (Ruby, on JRuby) as an HBase client of the cluster that ZooKeeper
 * names. Interactive on a terminal; {@code basalt shell SCRIPT.rb} or statements on stdin for scripts.
 */
@Command(name = "shell", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"HBase's shell: create, put, get, scan, ... in HBase's syntax, on any HBase-compatible cluster.",
        "Interactive on a terminal (history in ~/.basalt_shell_history, Tab completes commands); a script file,",
        "or statements on stdin, run without prompt. -n: stop with exit code 1 at the first failed command."})
final class ShellCommand implements Callable<Integer> {
  @Mixin
  ConfigOptions config;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]",
      description = "ZooKeeper connect string of the cluster.")
  String zookeeper;

  @Option(names = {"-n", "--noninteractive"},
      description = "No prompt; exit with code 1 at the first failed command (as HBase's shell -n).")
  boolean nonInteractive;

  @Parameters(arity = "0..1", paramLabel = "SCRIPT", description = "Ruby script of shell commands to run.")
  String script;

  @Override
  public Integer call() {
    BasaltConfig c = config.load();
    Configuration conf = HBaseConfiguration.create();
    // Every setting given (site file, -D) reaches the HBase client, as hbase-site.xml would.
    c.rawValues().forEach(conf::set);
    conf.set("hbase.zookeeper.quorum", zookeeper != null ? zookeeper : ZooKeeperKeys.connectString(c));
    conf.set("zookeeper.znode.parent", c.get(ZooKeeperKeys.ZNODE_PARENT));
    // A shell answers a typo quickly: a handful of retries, not the client's default of minutes.
    conf.setIfUnset("hbase.client.retries.number", "7");
    List<String> args = new ArrayList<>();
    if (nonInteractive) {
      args.add("-n");
    }
    if (script != null) {
      args.add(script);
    }
    return BasaltShell.run(conf, args, System.in, System.out, System.err, System.console() != null);
  }
}
