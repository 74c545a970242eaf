package io.basalt.dist.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.ServerName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code basalt recommission SERVER}: HBase's Admin.recommissionRegionServer. */
@Command(name = "recommission", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Puts a decommissioned region server back in service: it takes new regions and members again "
        + "(the balancer gives it its share)."})
final class RecommissionCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  ConfigOptions config;

  @Parameters(paramLabel = "SERVER", description = "The region server, HOST:PORT (as basalt status lists it).")
  String server;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]", description = "ZooKeeper connect string.")
  String zookeeper;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30", description = "Give up after this long.")
  int timeoutSeconds;

  @Override
  public Integer call() {
    ServerName asked = ClusterAdmin.parse(server);
    String done = ClusterAdmin.run(config.load(), zookeeper, timeoutSeconds, "recommission " + server, (conn, admin) -> {
      List<ServerName> decommissioned = admin.listDecommissionedRegionServers();
      ServerName s = ClusterAdmin.resolve(asked, decommissioned);
      if (decommissioned.stream().noneMatch(d -> d.getAddress().equals(s.getAddress()))) {
        throw new CliFailure(s.getAddress() + " is not decommissioned (decommissioned: "
            + (decommissioned.isEmpty() ? "none" : decommissioned.stream().map(d -> d.getAddress().toString()).toList())
            + ")");
      }
      admin.recommissionRegionServer(s, List.of());
      return "recommissioned " + s.getAddress();
    });
    spec.commandLine().getOut().println(done);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
