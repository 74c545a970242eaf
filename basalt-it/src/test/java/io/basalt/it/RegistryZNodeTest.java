package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.ClusterTarget;
import io.basalt.it.target.Targets;
import io.basalt.server.registry.ZooKeeperRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos.ClusterId;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionServerInfo;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos.Master;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos.MetaRegionServer;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.FieldDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.Parser;
import org.apache.hadoop.hbase.zookeeper.MasterAddressTracker;
import org.apache.hadoop.hbase.zookeeper.MetaTableLocator;
import org.apache.hadoop.hbase.zookeeper.ZKClusterId;
import org.apache.hadoop.hbase.zookeeper.ZKUtil;
import org.apache.hadoop.hbase.zookeeper.ZKWatcher;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The registry znodes Basalt writes have the layout real HBase 2.6.4 writes (metadata prefix 0xFF | id length |
 * writer id + 8 salt bytes, then "PBUF", then a protobuf with the same fields set), and HBase's own readers
 * (MasterAddressTracker, MetaTableLocator, ZKClusterId, the RegionServerTracker's parsing) decode them.
 * Values (ids, timestamps, ports) differ by nature and are not compared.
 */
@Timeout(300)
class RegistryZNodeTest {
  @Test
  void znodesHaveHBasesLayout() throws Exception {
    Assumptions.assumeTrue(Targets.enabled().contains(Targets.HBASE), "needs the HBase target");
    ClusterTarget basalt = Targets.get(Targets.BASALT);
    ClusterTarget hbase = Targets.get(Targets.HBASE);
    try (CuratorFramework ours = curator(basalt); CuratorFramework theirs = curator(hbase)) {
      compare(ours, theirs, "/hbase/hbaseid", ClusterId.parser());
      compare(ours, theirs, "/hbase/master", Master.parser());
      compare(ours, theirs, "/hbase/meta-region-server", MetaRegionServer.parser());
      compare(ours, theirs, "/hbase/rs/" + onlyChild(ours, "/hbase/rs"), "/hbase/rs/" + onlyChild(theirs, "/hbase/rs"),
          RegionServerInfo.parser());

      // Standalone HBase has no backup master; HBase writes one with the same call as /hbase/master
      // (MasterAddressTracker.setMasterAddress), so ours is held against HBase's /hbase/master.
      ServerName standby = ServerName.valueOf("127.0.0.1", 16000, 42L);
      new ZooKeeperRegistry(ours, "/hbase", "master:16000").publishBackupMaster(standby, -1);
      compare(ours, theirs, "/hbase/backup-masters/" + standby.getServerName(), "/hbase/master", Master.parser());
      try (ZKWatcher zkw = new ZKWatcher(basalt.clientConfiguration(), "registry-test", null)) {
        assertThat(MasterAddressTracker.getBackupMastersAndRenewWatch(zkw)).containsExactly(standby);
      } finally {
        ours.delete().forPath("/hbase/backup-masters/" + standby.getServerName());
      }
    }
  }

  @Test
  void hbasesReadersDecodeOurZNodes() throws Exception {
    ClusterTarget basalt = Targets.get(Targets.BASALT);
    Configuration conf = basalt.clientConfiguration();
    try (ZKWatcher zkw = new ZKWatcher(conf, "registry-test", null)) {
      ServerName master = MasterAddressTracker.getMasterAddress(zkw);
      assertThat(master.getPort()).isPositive();
      assertThat(MetaTableLocator.getMetaRegionLocation(zkw)).isEqualTo(master);
      assertThat(ZKClusterId.readClusterIdZNode(zkw)).isNotBlank();
      assertThat(MasterAddressTracker.getBackupMastersAndRenewWatch(zkw)).isEmpty();
      List<String> servers = ZKUtil.listChildrenNoWatch(zkw, zkw.getZNodePaths().rsZNode);
      assertThat(servers).hasSize(1);
      // As HBase's RegionServerTracker reads a region server's node.
      byte[] data = ZKUtil.getData(zkw, zkw.getZNodePaths().rsZNode + "/" + servers.get(0));
      assertThat(ProtobufUtil.isPBMagicPrefix(data)).isTrue();
      RegionServerInfo.Builder info = RegionServerInfo.newBuilder();
      ProtobufUtil.mergeFrom(info, data, ProtobufUtil.lengthOfPBMagic(), data.length - ProtobufUtil.lengthOfPBMagic());
      assertThat(info.getVersionInfo().getVersion()).isEqualTo("2.6.4");
      assertThat(ServerName.valueOf(servers.get(0)).getPort()).isPositive();
    }
  }

  private static void compare(CuratorFramework ours, CuratorFramework theirs, String path, Parser<? extends Message> p)
      throws Exception {
    compare(ours, theirs, path, path, p);
  }

  private static void compare(CuratorFramework ours, CuratorFramework theirs, String ourPath, String theirPath,
      Parser<? extends Message> parser) throws Exception {
    Layout a = Layout.of(ours.getData().forPath(ourPath), parser);
    Layout b = Layout.of(theirs.getData().forPath(theirPath), parser);
    System.out.printf("[znodes] %s: basalt %s | hbase %s%n", ourPath, a, b);
    assertThat(a).as("layout of %s (ours) vs %s (HBase's)", ourPath, theirPath).isEqualTo(b);
  }

  private static String onlyChild(CuratorFramework zk, String path) throws Exception {
    List<String> children = zk.getChildren().forPath(path);
    assertThat(children).as("children of %s", path).hasSize(1);
    return children.get(0);
  }

  private static CuratorFramework curator(ClusterTarget target) {
    Configuration conf = target.clientConfiguration();
    CuratorFramework zk = CuratorFrameworkFactory.newClient(conf.get("hbase.zookeeper.quorum") + ":"
        + conf.get("hbase.zookeeper.property.clientPort"), 30_000, 10_000, new RetryOneTime(500));
    zk.start();
    return zk;
  }

  /**
   * What must match byte for byte: the magic, the id's length arithmetic (writer name + 8 salt bytes), the
   * writer's role ("master" in "master:16000"), the PBUF magic and the set of protobuf fields present.
   */
  record Layout(int magic, String writerRole, int saltBytes, String pbMagic, Map<String, Object> fields) {
    static Layout of(byte[] znode, Parser<? extends Message> parser) throws Exception {
      ByteBuffer buf = ByteBuffer.wrap(znode);
      int magic = buf.get() & 0xFF;
      int idLength = buf.getInt();
      byte[] id = new byte[idLength];
      buf.get(id);
      String writer = new String(id, 0, idLength - Long.BYTES, StandardCharsets.UTF_8);
      assertThat(writer).as("writer id").matches("[a-z]+:\\d+");
      byte[] pb = new byte[4];
      buf.get(pb);
      byte[] proto = Arrays.copyOfRange(znode, buf.position(), znode.length);
      return new Layout(magic, writer.substring(0, writer.indexOf(':')), Long.BYTES, new String(pb,
          StandardCharsets.US_ASCII), fieldSet(parser.parseFrom(proto)));
    }

    /** Field names present, nested messages recursively (values left out). */
    private static Map<String, Object> fieldSet(Message m) {
      Map<String, Object> out = new TreeMap<>();
      for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
        Object v = e.getValue();
        out.put(e.getKey().getName(), v instanceof Message nested ? fieldSet(nested)
            : v instanceof List<?> list ? new ArrayList<>(list.size()) : "set");
      }
      return out;
    }
  }
}
