package io.basalt.dist.cli;

import io.basalt.gateway.rest.RestGateway;
import io.basalt.gateway.rest.RestGatewayOptions;
import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ZooKeeperKeys;
import java.io.IOException;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code basalt rest}: HBase's REST API ("Stargate"), as an HBase client of the cluster that ZooKeeper names.
 * Options and keys are those of HBase's {@code hbase rest start}.
 */
@Command(name = "rest", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"HBase's REST gateway (JSON, XML, protobuf; curl-friendly) on port 8080, /metrics on 8085.",
        "Serves any HBase-compatible cluster, found through ZooKeeper (hbase.zookeeper.quorum, or --zookeeper).",
        "Keys as HBase's gateway: hbase.rest.{port,host,readonly,info.port,threads.min,threads.max}."})
final class RestCommand implements Callable<Integer> {
  @Mixin
  ConfigOptions config;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]",
      description = "ZooKeeper connect string of the cluster.")
  String zookeeper;

  @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "Port to listen on (default 8080).")
  Integer port;

  @Option(names = {"-b", "--bind"}, paramLabel = "ADDRESS", description = "Address to bind (default 0.0.0.0).")
  String bind;

  @Option(names = {"-ro", "--readonly"}, description = "Refuse every request but GET (403).")
  boolean readOnly;

  @Option(names = {"-i", "--infoport"}, paramLabel = "PORT", description = "Port of /metrics (default 8085, -1: off).")
  Integer infoPort;

  @Override
  public Integer call() throws Exception {
    BasaltConfig c = config.load();
    Configuration conf = HBaseConfiguration.create();
    // Every setting given (site file, -D) reaches the gateway and its HBase client, as hbase-site.xml would.
    c.rawValues().forEach(conf::set);
    conf.set("hbase.zookeeper.quorum", zookeeper != null ? zookeeper : ZooKeeperKeys.connectString(c));
    conf.set("zookeeper.znode.parent", c.get(ZooKeeperKeys.ZNODE_PARENT));
    if (port != null) {
      conf.setInt(RestGatewayOptions.PORT, port);
    }
    if (bind != null) {
      conf.set(RestGatewayOptions.BIND, bind);
    }
    if (readOnly) {
      conf.setBoolean(RestGatewayOptions.READ_ONLY, true);
    }
    if (infoPort != null) {
      conf.setInt(RestGatewayOptions.INFO_PORT, infoPort);
    }
    RestGateway gateway;
    try {
      gateway = RestGateway.start(conf);
    } catch (IllegalArgumentException | IOException e) { // settings it cannot honour: one line, exit 2
      throw new CliFailure(e.getMessage());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "rest-shutdown"));
    System.out.printf("REST gateway listening on %s:%d%s; /metrics on port %d%n", gateway.options().bindAddress(),
        gateway.port(), gateway.options().readOnly() ? " (read-only)" : "", gateway.metricsPort());
    gateway.awaitStop();
    return 0;
  }
}
