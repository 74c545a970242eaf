package io.basalt.dist.cli;

import io.basalt.gateway.thrift.ThriftGateway;
import io.basalt.gateway.thrift.ThriftGatewayOptions;
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
 * {@code basalt thrift}: HBase's Thrift 1 gateway (what happybase speaks), as an HBase client of the cluster
 * that ZooKeeper names. Options and keys are those of HBase's {@code hbase thrift start}.
 */
@Command(name = "thrift", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"HBase's Thrift 1 gateway (Hbase.thrift, what happybase speaks) on port 9090, /metrics on 9095.",
        "Serves any HBase-compatible cluster, found through ZooKeeper (hbase.zookeeper.quorum, or --zookeeper).",
        "Keys as HBase's gateway: hbase.regionserver.thrift.{port,ipaddress,framed,compact}, "
            + "hbase.thrift.{minWorkerThreads,maxWorkerThreads,info.port}."})
final class ThriftCommand implements Callable<Integer> {
  @Mixin
  ConfigOptions config;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]", description = "ZooKeeper connect string of the cluster.")
  String zookeeper;

  @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "Port to listen on (default 9090).")
  Integer port;

  @Option(names = {"-b", "--bind"}, paramLabel = "ADDRESS", description = "Address to bind (default 0.0.0.0).")
  String bind;

  @Option(names = {"-f", "--framed"}, description = "Framed transport (default: buffered).")
  boolean framed;

  @Option(names = {"-c", "--compact"}, description = "Compact protocol (default: binary).")
  boolean compact;

  @Option(names = {"-m", "--minWorkers"}, paramLabel = "N", description = "Minimum worker threads (default 16).")
  Integer minWorkers;

  @Option(names = {"-w", "--workers"}, paramLabel = "N", description = "Maximum worker threads: concurrent "
      + "connections (default 1000).")
  Integer maxWorkers;

  @Option(names = "--infoport", paramLabel = "PORT", description = "Port of /metrics (default 9095, -1: off).")
  Integer infoPort;

  @Option(names = "-threadpool", description = "Thread-pool server, one worker per connection (the only kind; "
      + "accepted for HBase's command line).")
  boolean threadPool;

  @Override
  public Integer call() throws Exception {
    BasaltConfig c = config.load();
    Configuration conf = HBaseConfiguration.create();
    // Every setting given (site file, -D) reaches the gateway and its HBase client, as hbase-site.xml would.
    c.rawValues().forEach(conf::set);
    conf.set("hbase.zookeeper.quorum", zookeeper != null ? zookeeper : ZooKeeperKeys.connectString(c));
    conf.set("zookeeper.znode.parent", c.get(ZooKeeperKeys.ZNODE_PARENT));
    if (port != null) {
      conf.setInt(ThriftGatewayOptions.PORT, port);
    }
    if (bind != null) {
      conf.set(ThriftGatewayOptions.BIND, bind);
    }
    if (framed) {
      conf.setBoolean(ThriftGatewayOptions.FRAMED, true);
    }
    if (compact) {
      conf.setBoolean(ThriftGatewayOptions.COMPACT, true);
    }
    if (minWorkers != null) {
      conf.setInt(ThriftGatewayOptions.MIN_WORKERS, minWorkers);
    }
    if (maxWorkers != null) {
      conf.setInt(ThriftGatewayOptions.MAX_WORKERS, maxWorkers);
    }
    if (infoPort != null) {
      conf.setInt(ThriftGatewayOptions.INFO_PORT, infoPort);
    }
    ThriftGateway gateway;
    try {
      gateway = ThriftGateway.start(conf);
    } catch (IllegalArgumentException | IOException e) { // settings it cannot honour: one line, exit 2
      throw new CliFailure(e.getMessage());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "thrift-shutdown"));
    System.out.printf("Thrift 1 gateway listening on %s:%d (%s); /metrics on port %d%n",
        gateway.options().bindAddress(), gateway.port(), gateway.options().describe(), gateway.metricsPort());
    gateway.awaitStop();
    return 0;
  }
}
