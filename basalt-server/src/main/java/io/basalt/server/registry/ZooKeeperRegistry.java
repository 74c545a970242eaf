package io.basalt.server.registry;

import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos.ClusterId;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos.Master;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos.MetaRegionServer;
import org.apache.zookeeper.CreateMode;

/**
 * The znodes HBase's default (ZooKeeper) connection registry reads, each {@code "PBUF"} + protobuf:
 * {@code PARENT/hbaseid} (ClusterId), {@code PARENT/master} (Master) and {@code PARENT/meta-region-server}
 * (MetaRegionServer). The last two are ephemeral: they vanish with this process's session.
 */
public final class ZooKeeperRegistry {
  private final CuratorFramework zk;
  private final String parent;

  public ZooKeeperRegistry(CuratorFramework zk, String parent) {
    this.zk = zk;
    this.parent = parent;
  }

  public void publish(String clusterId, ServerName master, int masterInfoPort, ServerName metaServer) throws IOException {
    try {
      put(parent + "/hbaseid", ClusterId.newBuilder().setClusterId(clusterId).build().toByteArray(), CreateMode.PERSISTENT);
      put(parent + "/master", Master.newBuilder().setMaster(ProtobufUtil.toServerName(master)).setRpcVersion(0)
          .setInfoPort(masterInfoPort).build().toByteArray(), CreateMode.EPHEMERAL);
      put(parent + "/meta-region-server", MetaRegionServer.newBuilder().setServer(ProtobufUtil.toServerName(metaServer))
          .setRpcVersion(0).setState(RegionState.State.OPEN).build().toByteArray(), CreateMode.EPHEMERAL);
    } catch (Exception e) {
      throw new IOException("publishing the HBase registry znodes failed: " + e.getMessage(), e);
    }
  }

  /** The cluster id, as the active master published it. */
  public String clusterId() throws IOException {
    try {
      return ClusterId.parseFrom(strip(zk.getData().forPath(parent + "/hbaseid"))).getClusterId();
    } catch (Exception e) {
      throw new IOException("no cluster id in ZooKeeper yet (is a master running?)", e);
    }
  }

  /** The active master, as it published itself. */
  public ServerName master() throws IOException {
    try {
      return ProtobufUtil.toServerName(Master.parseFrom(strip(zk.getData().forPath(parent + "/master"))).getMaster());
    } catch (Exception e) {
      throw new org.apache.hadoop.hbase.MasterNotRunningException("no active master in ZooKeeper: " + e.getMessage());
    }
  }

  /** Where {@code hbase:meta} is served (by the active master). */
  public ServerName metaServer() throws IOException {
    try {
      return ProtobufUtil.toServerName(MetaRegionServer.parseFrom(strip(
          zk.getData().forPath(parent + "/meta-region-server"))).getServer());
    } catch (Exception e) {
      throw new org.apache.hadoop.hbase.MasterNotRunningException("no meta location in ZooKeeper: " + e.getMessage());
    }
  }

  private static byte[] strip(byte[] data) throws IOException {
    if (!ProtobufUtil.isPBMagicPrefix(data)) {
      throw new IOException("registry znode without PBUF prefix");
    }
    return java.util.Arrays.copyOfRange(data, ProtobufUtil.lengthOfPBMagic(), data.length);
  }

  private void put(String path, byte[] proto, CreateMode mode) throws Exception {
    byte[] data = ProtobufUtil.prependPBMagic(proto);
    zk.delete().quietly().forPath(path);
    zk.create().creatingParentsIfNeeded().withMode(mode).forPath(path, data);
  }
}
