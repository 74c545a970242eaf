package io.basalt.server.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.zk.EmbeddedZooKeeper;
import io.basalt.server.zk.ZooKeeperClients;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class DecommissionedServersTest {
  private static final ServerName A = ServerName.valueOf("127.0.0.1", 16020, 100);
  private static final ServerName A_RESTARTED = ServerName.valueOf("127.0.0.1", 16020, 200);
  private static final ServerName B = ServerName.valueOf("127.0.0.1", 16021, 100);

  @TempDir Path dir;
  private EmbeddedZooKeeper zooKeeper;
  private CuratorFramework zk;

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new EmbeddedZooKeeper(new InetSocketAddress("127.0.0.1", 0), dir);
    zk = ZooKeeperClients.connect(zooKeeper.connectString(), 10_000);
  }

  @AfterEach
  void stop() {
    zk.close();
    zooKeeper.close();
  }

  @Test
  void theSetLivesWhereHBaseKeepsItAndSurvivesANewReader() throws Exception {
    DecommissionedServers store = new DecommissionedServers(zk, "/hbase");
    assertThat(store.load()).isEmpty();
    store.add(A, true);
    store.add(B, false);
    assertThat(zk.getChildren().forPath("/hbase/draining")).containsExactlyInAnyOrder(A.getServerName(), B.getServerName());
    // What a new master reads.
    assertThat(new DecommissionedServers(zk, "/hbase").load()).isEqualTo(Map.of(A, true, B, false));
  }

  @Test
  void oneRecordPerAddressAndRecommissionMatchesAnyStartCode() throws Exception {
    DecommissionedServers store = new DecommissionedServers(zk, "/hbase");
    store.add(A, false);
    store.add(A_RESTARTED, true);
    assertThat(store.load()).isEqualTo(Map.of(A_RESTARTED, true));
    assertThat(store.remove(A)).isTrue();
    assertThat(store.load()).isEmpty();
    assertThat(store.remove(A)).isFalse();
  }
}
