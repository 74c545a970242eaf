package io.basalt.bench.compare.launch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/** The client configuration every workload uses, the same for both targets. */
public final class ClientSettings {
  private ClientSettings() {}

  public static Configuration zookeeper(String quorum, int port) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.setInt("hbase.zookeeper.property.clientPort", port);
    // A failing server should fail the run within a minute, not retry for the client's default ~20 minutes.
    conf.setInt("hbase.client.retries.number", 10);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    return conf;
  }
}
