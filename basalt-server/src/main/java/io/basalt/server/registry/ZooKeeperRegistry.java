package io.basalt.server.registry;

import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos.ClusterId;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionServerInfo;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos.Master;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos.MetaRegionServer;
import org.apache.zookeeper.CreateMode;

/**
 * The znodes HBase's clients and tools read, written as HBase 2.6 writes them: the metadata prefix
 * ({@link ZNodeMetadata}), {@code "PBUF"}, the protobuf. {@code PARENT/hbaseid} (ClusterId),
 * {@code PARENT/master} and {@code PARENT/backup-masters/<servername>} (Master),
 * {@code PARENT/meta-region-server} (MetaRegionServer) and {@code PARENT/rs/<servername>} (RegionServerInfo).
 * All but hbaseid are ephemeral: they vanish with this process's session. (HBase keeps meta-region-server
 * persistent because meta outlives its master there; ours is served by the active master itself, so a
 * location left behind by a dead master would only send clients to a dead address.)
 */
public final class ZooKeeperRegistry {
  private final CuratorFramework zk;
  private final String parent;
  private final String identifier;

  /** {@code identifier} names the writer in the metadata prefix, as HBase's {@code "master:16000"}. */
  public ZooKeeperRegistry(CuratorFramework zk, String parent, String identifier) {
    this.zk = zk;
    this.parent = parent;
    this.identifier = identifier;
  }

  /** The active master publishes the cluster id, itself and meta's location, and stops being a backup. */
  public void publish(String clusterId, ServerName master, int masterInfoPort, ServerName metaServer) throws IOException {
    try {
      put(parent + "/hbaseid", ClusterId.newBuilder().setClusterId(clusterId).build().toByteArray(), CreateMode.PERSISTENT);
      put(parent + "/master", masterRecord(master, masterInfoPort), CreateMode.EPHEMERAL);
      put(parent + "/meta-region-server", MetaRegionServer.newBuilder().setServer(ProtobufUtil.toServerName(metaServer))
          .setRpcVersion(0).setState(RegionState.State.OPEN).build().toByteArray(), CreateMode.EPHEMERAL);
      zk.delete().quietly().forPath(backupMasterPath(master));
    } catch (Exception e) {
      throw new IOException("publishing the HBase registry znodes failed: " + e.getMessage(), e);
    }
  }

  /** A master waiting for election lists itself under backup-masters, where HBase's status and tools look. */
  public void publishBackupMaster(ServerName master, int masterInfoPort) throws IOException {
    try {
      put(backupMasterPath(master), masterRecord(master, masterInfoPort), CreateMode.EPHEMERAL);
    } catch (Exception e) {
      throw new IOException("publishing backup master " + master + " failed: " + e.getMessage(), e);
    }
  }

  /** A region server's node under rs (HBase's liveness list; Basalt's own membership is elsewhere). */
  public void publishRegionServer(ServerName server, int infoPort) throws IOException {
    try {
      put(parent + "/rs/" + server.getServerName(), RegionServerInfo.newBuilder().setInfoPort(infoPort)
          .setVersionInfo(ProtobufUtil.getVersionInfo()).build().toByteArray(), CreateMode.EPHEMERAL);
    } catch (Exception e) {
      throw new IOException("publishing region server " + server + " failed: " + e.getMessage(), e);
    }
  }

  private String backupMasterPath(ServerName master) {
    return parent + "/backup-masters/" + master.getServerName();
  }

  private static byte[] masterRecord(ServerName master, int infoPort) {
    return Master.newBuilder().setMaster(ProtobufUtil.toServerName(master)).setRpcVersion(0).setInfoPort(infoPort)
        .build().toByteArray();
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

  private static byte[] strip(byte[] znode) throws IOException {
    byte[] data = ZNodeMetadata.strip(znode);
    if (!ProtobufUtil.isPBMagicPrefix(data)) {
      throw new IOException("registry znode without PBUF prefix");
    }
    return java.util.Arrays.copyOfRange(data, ProtobufUtil.lengthOfPBMagic(), data.length);
  }

  private void put(String path, byte[] proto, CreateMode mode) throws Exception {
    byte[] data = ZNodeMetadata.prepend(identifier, ProtobufUtil.prependPBMagic(proto));
    zk.delete().quietly().forPath(path);
    zk.create().creatingParentsIfNeeded().withMode(mode).forPath(path, data);
  }
}
