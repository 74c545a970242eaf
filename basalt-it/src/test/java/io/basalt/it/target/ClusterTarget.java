package io.basalt.it.target;

import org.apache.hadoop.conf.Configuration;

/**
 * A running cluster that the unmodified HBase 2.6.4 client can talk to: Basalt in-process, or real Apache HBase
 * 2.6.4 in a child JVM. The same test bodies run against both; HBase's answer is the reference.
 */
public interface ClusterTarget extends AutoCloseable {
  /** "basalt" or "hbase": shown in test names and used to pick targets. */
  String name();

  /** A fresh client configuration that finds the cluster through its ZooKeeper (the 2.6 default registry). */
  Configuration clientConfiguration();

  /** A fresh client configuration that finds the cluster through the 2.6 RPC registry (no ZooKeeper in the client). */
  Configuration rpcRegistryConfiguration();

  /** Stops the cluster and removes its data. Never throws. */
  @Override
  void close();
}
