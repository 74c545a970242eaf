package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/** Waits, with the HBase client, until launched servers answer; the wait is their cold start time. */
final class Readiness {
  private static final long TIMEOUT_MILLIS = 180_000;

  private Readiness() {}

  /**
   * Polls until the cluster serves with at least {@code liveServers} live region servers, one of the processes
   * dies, or the bound passes; returns the time from launching the first process to the first answer.
   */
  static Duration await(List<ChildJvm> processes, String name, int zookeeperPort, int liveServers,
      UnaryOperator<Configuration> clientSide) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
    Exception last = null;
    while (true) {
      checkAlive(processes, name);
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(name + " not ready after " + TIMEOUT_MILLIS + " ms (last probe: " + last + "); log "
            + processes.get(processes.size() - 1).log() + ":\n" + processes.get(processes.size() - 1).tail(40));
      }
      if (Ports.accepts(zookeeperPort)) {
        try {
          if (probe(zookeeperPort, liveServers, clientSide)) {
            return Duration.ofNanos(System.nanoTime() - processes.get(0).startedNanos());
          }
        } catch (IOException | RuntimeException e) {
          last = e;
        }
      }
      Thread.sleep(100);
    }
  }

  /** Polls until {@code process} accepts connections on {@code port} (a cluster's ZooKeeper or master). */
  static void awaitPort(ChildJvm process, String name, int port) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
    while (!Ports.accepts(port)) {
      checkAlive(List.of(process), name);
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(name + " does not listen on " + port + " after " + TIMEOUT_MILLIS + " ms; log "
            + process.log() + ":\n" + process.tail(40));
      }
      Thread.sleep(100);
    }
  }

  private static void checkAlive(List<ChildJvm> processes, String name) throws IOException {
    for (ChildJvm p : processes) {
      if (!p.isAlive()) {
        throw new IOException(name + ": " + p.log().getFileName() + " exited with code " + p.exitValue()
            + " before it was ready; log " + p.log() + ":\n" + p.tail(40));
      }
    }
  }

  private static boolean probe(int zookeeperPort, int liveServers, UnaryOperator<Configuration> clientSide)
      throws IOException {
    Configuration conf = clientSide.apply(ClientSettings.zookeeper("127.0.0.1", zookeeperPort));
    conf.setInt("hbase.client.retries.number", 1);
    conf.setInt("hbase.rpc.timeout", 2_000);
    conf.setInt("hbase.client.operation.timeout", 4_000);
    conf.setInt("hbase.client.meta.operation.timeout", 4_000);
    conf.setInt("zookeeper.recovery.retry", 0);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      // HBase answers PleaseHoldException until its master has finished initializing.
      admin.listNamespaceDescriptors();
      return admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS)).getLiveServerMetrics().size()
          >= liveServers;
    }
  }
}
