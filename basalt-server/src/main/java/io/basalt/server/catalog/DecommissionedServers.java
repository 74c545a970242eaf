package io.basalt.server.catalog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.ServerName;
import org.apache.zookeeper.KeeperException;

/**
 * The decommissioned region servers, kept where HBase keeps them: one znode per server under
 * {@code PARENT/draining}, named by its server name, so the set survives a master failover and HBase's own
 * tools see it. A server is decommissioned by address (it stays so across restarts); the znode's data says
 * whether its regions and members are to be moved away ({@code offload}), which HBase does once at the
 * call and Basalt keeps doing until it is recommissioned (a member rebuilt elsewhere must not come back).
 */
public final class DecommissionedServers {
  private static final byte[] OFFLOAD = "offload".getBytes(StandardCharsets.UTF_8);

  private final CuratorFramework zk;
  private final String dir;

  public DecommissionedServers(CuratorFramework zk, String hbaseZnodeParent) {
    this.zk = zk;
    this.dir = hbaseZnodeParent + "/draining";
  }

  /** Every decommissioned server, with whether it is being offloaded. */
  public Map<ServerName, Boolean> load() throws IOException {
    try {
      Map<ServerName, Boolean> out = new TreeMap<>();
      List<String> children;
      try {
        children = zk.getChildren().forPath(dir);
      } catch (KeeperException.NoNodeException none) {
        return out;
      }
      for (String child : children) {
        byte[] data;
        try {
          data = zk.getData().forPath(dir + "/" + child);
        } catch (KeeperException.NoNodeException raced) {
          continue;
        }
        out.put(ServerName.parseServerName(child), data != null && java.util.Arrays.equals(data, OFFLOAD));
      }
      return out;
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("reading the decommissioned servers from ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  /** Records a decommission, replacing any record of the same address (another start code or offload flag). */
  public void add(ServerName server, boolean offload) throws IOException {
    remove(server);
    try {
      zk.create().creatingParentsIfNeeded().forPath(dir + "/" + server.getServerName(), offload ? OFFLOAD : new byte[0]);
    } catch (Exception e) {
      throw new IOException("recording the decommission of " + server + " in ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  /** Forgets every record of the server's address; false if there was none. */
  public boolean remove(ServerName server) throws IOException {
    boolean found = false;
    for (ServerName s : load().keySet()) {
      if (s.getAddress().equals(server.getAddress())) {
        try {
          zk.delete().quietly().forPath(dir + "/" + s.getServerName());
        } catch (Exception e) {
          throw new IOException("removing the decommission of " + s + " from ZooKeeper failed: " + e.getMessage(), e);
        }
        found = true;
      }
    }
    return found;
  }
}
