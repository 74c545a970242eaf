package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/** Waits, with the HBase client, until a launched server answers; the wait is its cold start time. */
final class Readiness {
  private static final long TIMEOUT_MILLIS = 180_000;

  private Readiness() {}

  /** Polls until the cluster serves, the child dies, or the bound passes; returns launch-to-first-answer. */
  static Duration await(ChildJvm child, String name, int zookeeperPort) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
    Exception last = null;
    while (true) {
      if (!child.isAlive()) {
        throw new IOException(name + " exited with code " + child.exitValue() + " before it was ready; log "
            + child.log() + ":\n" + child.tail(40));
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(name + " not ready after " + TIMEOUT_MILLIS + " ms (last probe: " + last + "); log "
            + child.log() + ":\n" + child.tail(40));
      }
      if (Ports.accepts(zookeeperPort)) {
        try {
          if (probe(zookeeperPort)) {
            return Duration.ofNanos(System.nanoTime() - child.startedNanos());
          }
        } catch (IOException | RuntimeException e) {
          last = e;
        }
      }
      Thread.sleep(100);
    }
  }

  private static boolean probe(int zookeeperPort) throws IOException {
    Configuration conf = ClientSettings.zookeeper("127.0.0.1", zookeeperPort);
    conf.setInt("hbase.client.retries.number", 1);
    conf.setInt("hbase.rpc.timeout", 2_000);
    conf.setInt("hbase.client.operation.timeout", 4_000);
    conf.setInt("hbase.client.meta.operation.timeout", 4_000);
    conf.setInt("zookeeper.recovery.retry", 0);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      // HBase answers PleaseHoldException until its master has finished initializing.
      admin.listNamespaceDescriptors();
      return !admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS)).getLiveServerMetrics().isEmpty();
    }
  }
}
