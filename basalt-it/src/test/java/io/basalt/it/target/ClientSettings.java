package io.basalt.it.target;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/** Client settings shared by every target, so both see the same client behaviour. */
final class ClientSettings {
  private ClientSettings() {}

  static Configuration zookeeperRegistry(String quorum, int zookeeperPort) {
    Configuration conf = base();
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.setInt("hbase.zookeeper.property.clientPort", zookeeperPort);
    return conf;
  }

  static Configuration rpcRegistry(String bootstrapServers) {
    Configuration conf = base();
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", bootstrapServers);
    return conf;
  }

  private static Configuration base() {
    Configuration conf = HBaseConfiguration.create();
    // Errors that HBase does not retry (the ones the tests look at) surface at once either way; a few retries
    // absorb the odd transient answer while a just-created region settles, and bound a hang to seconds.
    conf.setInt("hbase.client.retries.number", 5);
    conf.setInt("hbase.rpc.timeout", 30_000);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    return conf;
  }
}
