package io.basalt.dist.cli;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ZooKeeperKeys;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * How the administrative commands reach a cluster: the HBase client through ZooKeeper, as any HBase tool
 * would, impatient (a few retries) and bounded by a timeout, with one-line errors.
 */
final class ClusterAdmin {
  private ClusterAdmin() {}

  @FunctionalInterface
  interface AdminCall<T> {
    T call(Connection conn, Admin admin) throws Exception;
  }

  static Configuration configuration(String quorum, String znodeParent, int timeoutSeconds) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.set("zookeeper.znode.parent", znodeParent);
    conf.setInt("hbase.client.retries.number", 2);
    conf.setInt("zookeeper.recovery.retry", 1);
    conf.setInt("hbase.rpc.timeout", 10_000);
    conf.setInt("hbase.client.operation.timeout", timeoutSeconds * 1000);
    return conf;
  }

  /** Runs {@code call} against the cluster that {@code zookeeper} (or the configuration) names. */
  static <T> T run(BasaltConfig c, String zookeeper, int timeoutSeconds, String what, AdminCall<T> call) {
    String quorum = zookeeper != null ? zookeeper : ZooKeeperKeys.connectString(c);
    Configuration conf = configuration(quorum, c.get(ZooKeeperKeys.ZNODE_PARENT), timeoutSeconds);
    ExecutorService single = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "basalt-admin");
      t.setDaemon(true);
      return t;
    });
    try {
      Callable<T> task = () -> {
        try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
          return call.call(conn, admin);
        }
      };
      Future<T> result = single.submit(task);
      return result.get(timeoutSeconds, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new CliFailure("no answer from the cluster through ZooKeeper " + quorum + " within " + timeoutSeconds + " s");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof CliFailure f) {
        throw f;
      }
      throw new CliFailure("cannot " + what + " through ZooKeeper " + quorum + ": " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliFailure("interrupted");
    } finally {
      single.shutdownNow();
    }
  }

  /** A region server named as HOST:PORT or HOST,PORT,STARTCODE. */
  static ServerName parse(String asked) {
    try {
      ServerName s = asked.contains(",") ? ServerName.valueOf(asked) : ServerName.valueOf(asked, ServerName.NON_STARTCODE);
      if (s.getPort() <= 0) {
        throw new IllegalArgumentException("no port");
      }
      return s;
    } catch (RuntimeException e) {
      throw new CliFailure("'" + asked + "' is not a region server: give HOST:PORT (as basalt status lists it)");
    }
  }

  /** The one of {@code known} at the same address (any start code: the server is meant, not one run of it). */
  static ServerName resolve(ServerName wanted, List<ServerName> known) {
    return known.stream().filter(s -> s.getAddress().equals(wanted.getAddress())).findFirst().orElse(wanted);
  }
}
