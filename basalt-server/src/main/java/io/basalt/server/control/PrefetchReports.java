package io.basalt.server.control;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.ServerName;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * How a move's target tells the master that its prefetch is over (paper §III.E): the pull of a large
 * region takes seconds to minutes, so the target pulls in the background and writes one znode when done,
 * which the master waits for with a ZooKeeper watch instead of holding a call open.
 * <pre>
 * ROOT/prefetched/&lt;encoded region name&gt;   persistent, written by the target, deleted by the master
 *   data (UTF-8): "ok &lt;bytes received&gt;"  |  "failed &lt;reason&gt;"
 * </pre>
 */
public final class PrefetchReports {
  private final CuratorFramework zk;
  private final String dir;
  /** Where region servers register ({@code ServerRegistration}): a target is alive while its znode is. */
  private final String servers;

  public PrefetchReports(CuratorFramework zk, String root) {
    this.zk = zk;
    this.dir = root + "/prefetched";
    this.servers = root + "/servers";
  }

  /** Target: the pull of {@code encoded} ended, with {@code bytes} received, or failed for {@code reason}. */
  public void report(String encoded, long bytes, String failure) throws IOException {
    byte[] data = (failure == null ? "ok " + bytes : "failed " + failure).getBytes(StandardCharsets.UTF_8);
    String path = dir + "/" + encoded;
    try {
      try {
        zk.create().creatingParentsIfNeeded().forPath(path, data);
      } catch (KeeperException.NodeExistsException e) {
        zk.setData().forPath(path, data);
      }
    } catch (Exception e) {
      throw new IOException("reporting the prefetch of " + encoded + " to ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  /** Master: forgets any report on {@code encoded} (before a prefetch starts and once it was read). */
  public void clear(String encoded) throws IOException {
    try {
      zk.delete().quietly().forPath(dir + "/" + encoded);
    } catch (Exception e) {
      throw new IOException("clearing the prefetch report of " + encoded + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Master: waits, with a watch, for the report on {@code encoded} and returns the bytes received. The
   * registration of {@code target} (this very instance, start code included) is checked every second: a
   * target that died or restarted ends the wait, whatever the master's own view of the servers says.
   *
   * @throws IOException if the target reported a failure, went away, or did not report in time
   */
  public long await(String encoded, ServerName target, long timeoutMillis) throws IOException {
    String path = dir + "/" + encoded;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    try {
      // One watch at a time: set again only after it fired (ZooKeeper watches fire once).
      CountDownLatch changed = new CountDownLatch(1);
      Stat stat = watch(path, changed);
      while (stat == null) {
        if (changed.await(1, TimeUnit.SECONDS)) {
          changed = new CountDownLatch(1);
          stat = watch(path, changed);
          continue;
        }
        if (zk.checkExists().forPath(servers + "/" + target.getServerName()) == null) {
          throw new IOException(target + ", the target of " + encoded + ", went away before its prefetch was reported");
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("no prefetch report on " + encoded + " within " + timeoutMillis + " ms");
        }
      }
      return parse(encoded, new String(zk.getData().forPath(path), StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for the prefetch of " + encoded);
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("waiting for the prefetch of " + encoded + " in ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  private Stat watch(String path, CountDownLatch changed) throws Exception {
    return zk.checkExists().usingWatcher((Watcher) event -> changed.countDown()).forPath(path);
  }

  private static long parse(String encoded, String report) throws IOException {
    if (report.startsWith("ok ")) {
      try {
        return Long.parseLong(report.substring(3));
      } catch (NumberFormatException e) {
        // falls through to the error below
      }
    } else if (report.startsWith("failed ")) {
      throw new IOException("the prefetch of " + encoded + " failed: " + report.substring(7));
    }
    throw new IOException("unreadable prefetch report on " + encoded + ": " + report);
  }
}
