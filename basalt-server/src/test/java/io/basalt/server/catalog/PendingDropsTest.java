package io.basalt.server.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.zk.EmbeddedZooKeeper;
import io.basalt.server.zk.ZooKeeperClients;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class PendingDropsTest {
  private static final RegionInfo A = RegionInfoBuilder.newBuilder(TableName.valueOf("t"))
      .setEndKey(Bytes.toBytes("m")).setRegionId(2).build();
  private static final RegionInfo B = RegionInfoBuilder.newBuilder(TableName.valueOf("t"))
      .setStartKey(Bytes.toBytes("m")).setRegionId(2).build();

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
  void dropsAreKeptByAddressUntilDoneAndSurviveANewMaster() throws Exception {
    ServerName before = ServerName.valueOf("127.0.0.1", 16020, 1);
    ServerName restarted = ServerName.valueOf("127.0.0.1", 16020, 2);
    ServerName other = ServerName.valueOf("127.0.0.1", 16021, 1);
    PendingDrops drops = new PendingDrops(zk, "/basalt");
    drops.add(before, A);
    drops.add(before, B);
    drops.add(before, A); // a repeated step records nothing twice

    // A restarted server (same address, new start code) finds them, read by another master too.
    assertThat(new PendingDrops(zk, "/basalt").of(restarted)).containsExactlyInAnyOrder(A, B);
    assertThat(drops.of(other)).isEmpty();
    drops.done(restarted, A);
    drops.done(restarted, A);
    assertThat(drops.of(before)).containsExactly(B);
  }
}
