package io.basalt.server.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.zk.EmbeddedZooKeeper;
import io.basalt.server.zk.ZooKeeperClients;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.ServerName;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class PrefetchReportsTest {
  private static final ServerName TARGET = ServerName.valueOf("127.0.0.1", 16020, 1);

  @TempDir Path dir;
  private EmbeddedZooKeeper zooKeeper;
  private CuratorFramework master;
  private CuratorFramework target;

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new EmbeddedZooKeeper(new InetSocketAddress("127.0.0.1", 0), dir);
    master = ZooKeeperClients.connect(zooKeeper.connectString(), 10_000);
    target = ZooKeeperClients.connect(zooKeeper.connectString(), 10_000);
  }

  @AfterEach
  void stop() {
    target.close();
    master.close();
    zooKeeper.close();
  }

  private void register(ServerName server) throws Exception {
    target.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
        .forPath("/basalt/servers/" + server.getServerName());
  }

  @Test
  void theWaitEndsWhenTheTargetReportsThroughTheWatch() throws Exception {
    register(TARGET);
    PrefetchReports waiting = new PrefetchReports(master, "/basalt");
    CompletableFuture<Long> bytes = CompletableFuture.supplyAsync(() -> {
      try {
        return waiting.await("r1", TARGET, 30_000);
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    Thread.sleep(300);
    assertThat(bytes).isNotDone();
    new PrefetchReports(target, "/basalt").report("r1", 12345, null);
    assertThat(bytes.get(10, TimeUnit.SECONDS)).isEqualTo(12345);
  }

  @Test
  void aReportedFailureIsThrownAndClearForgetsIt() throws Exception {
    register(TARGET);
    PrefetchReports reports = new PrefetchReports(master, "/basalt");
    reports.report("r2", 0, "java.io.IOException: connection reset");
    assertThatThrownBy(() -> reports.await("r2", TARGET, 1_000))
        .isInstanceOf(IOException.class).hasMessageContaining("connection reset");
    reports.clear("r2");
    reports.clear("r2");
    reports.report("r2", 7, null); // a later prefetch overwrites nothing stale
    assertThat(reports.await("r2", TARGET, 1_000)).isEqualTo(7);
  }

  @Test
  void aTargetWhoseRegistrationEndsEndsTheWait() throws Exception {
    register(TARGET);
    PrefetchReports reports = new PrefetchReports(master, "/basalt");
    CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS).execute(target::close); // its session ends
    assertThatThrownBy(() -> reports.await("r3", TARGET, 30_000))
        .isInstanceOf(IOException.class).hasMessageContaining("went away");
  }

  @Test
  void aRestartedTargetIsNotTheOneThatWasAsked() throws Exception {
    register(ServerName.valueOf("127.0.0.1", 16020, 2)); // same address, a later start code
    assertThatThrownBy(() -> new PrefetchReports(master, "/basalt").await("r4", TARGET, 30_000))
        .isInstanceOf(IOException.class).hasMessageContaining("went away");
  }
}
