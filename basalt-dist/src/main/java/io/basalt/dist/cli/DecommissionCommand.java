package io.basalt.dist.cli;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code basalt decommission SERVER}: HBase's Admin.decommissionRegionServers. */
@Command(name = "decommission", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Takes a region server out of service: it gets no new regions or region members, and (unless "
        + "--no-offload) its members are rebuilt on other servers and its other regions moved away, in the "
        + "background (basalt status shows the progress). It stays decommissioned across restarts and master "
        + "failovers until basalt recommission."})
final class DecommissionCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  ConfigOptions config;

  @Parameters(paramLabel = "SERVER", description = "The region server, HOST:PORT (as basalt status lists it).")
  String server;

  @Option(names = "--no-offload", description = "Leave its regions and members where they are.")
  boolean noOffload;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]", description = "ZooKeeper connect string.")
  String zookeeper;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30", description = "Give up after this long.")
  int timeoutSeconds;

  @Override
  public Integer call() {
    ServerName asked = ClusterAdmin.parse(server);
    String done = ClusterAdmin.run(config.load(), zookeeper, timeoutSeconds, "decommission " + server, (conn, admin) -> {
      List<ServerName> known = new ArrayList<>(admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
          .getLiveServerMetrics().keySet());
      ServerName s = ClusterAdmin.resolve(asked, known);
      admin.decommissionRegionServers(List.of(s), !noOffload);
      return "decommissioned " + s.getAddress() + (noOffload ? " (its regions stay)"
          : "; its regions and members are moving to other servers (basalt status shows what is left)");
    });
    spec.commandLine().getOut().println(done);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
