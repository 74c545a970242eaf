package io.basalt.gateway.thrift;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/** Basalt standalone in this JVM (free ports, temp data) and gateways in front of it. */
final class GatewayFixture implements AutoCloseable {
  private final Path dir;
  private final StandaloneServer cluster;

  GatewayFixture() throws IOException, InterruptedException {
    dir = Files.createTempDirectory("thrift-gateway-");
    cluster = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
  }

  /** A gateway on free ports with the given transport and protocol. */
  ThriftGateway gateway(boolean framed, boolean compact) throws IOException {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", cluster.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", cluster.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 5);
    conf.set(ThriftGatewayOptions.BIND, "127.0.0.1");
    conf.setInt(ThriftGatewayOptions.PORT, 0);
    conf.setInt(ThriftGatewayOptions.INFO_PORT, 0);
    conf.setBoolean(ThriftGatewayOptions.FRAMED, framed);
    conf.setBoolean(ThriftGatewayOptions.COMPACT, compact);
    conf.setInt(ThriftGatewayOptions.MIN_WORKERS, 2);
    return ThriftGateway.start(conf);
  }

  @Override
  public void close() throws IOException {
    try {
      cluster.close();
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
