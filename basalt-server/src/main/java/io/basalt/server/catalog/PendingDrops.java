package io.basalt.server.catalog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.exceptions.DeserializationException;
import org.apache.zookeeper.KeeperException;

/**
 * Region directories to delete on a region server that is down, when it registers again: a replicated split
 * finished or rolled back without it, and what it left on that server's disk (the retired parent's member, or
 * the daughters of a split that was undone) is no longer in the catalog as its. One znode per directory,
 * {@code ROOT/pending-drops/<host>:<port>/<encoded name>}, holding the region's {@link RegionInfo}; keyed by
 * address, as a restarted server comes back under a new start code with the same disk.
 */
public final class PendingDrops {
  private final CuratorFramework zk;
  private final String dir;

  public PendingDrops(CuratorFramework zk, String root) {
    this.zk = zk;
    this.dir = root + "/pending-drops";
  }

  private String serverDir(ServerName server) {
    return dir + "/" + server.getAddress().toString();
  }

  public void add(ServerName server, RegionInfo region) throws IOException {
    String path = serverDir(server) + "/" + region.getEncodedName();
    try {
      if (zk.checkExists().forPath(path) == null) {
        zk.create().creatingParentsIfNeeded().forPath(path, RegionInfo.toByteArray(region));
      }
    } catch (KeeperException.NodeExistsException alreadyThere) {
      // recorded by an earlier try
    } catch (Exception e) {
      throw new IOException("recording that " + region.getRegionNameAsString() + " is to be dropped on " + server
          + " failed: " + e.getMessage(), e);
    }
  }

  /** What is to be dropped on the server at {@code server}'s address. */
  public List<RegionInfo> of(ServerName server) throws IOException {
    List<RegionInfo> out = new ArrayList<>();
    String base = serverDir(server);
    try {
      List<String> names;
      try {
        names = zk.getChildren().forPath(base);
      } catch (KeeperException.NoNodeException e) {
        return out;
      }
      for (String name : names) {
        try {
          out.add(RegionInfo.parseFrom(zk.getData().forPath(base + "/" + name)));
        } catch (KeeperException.NoNodeException gone) {
          // done meanwhile
        }
      }
      return out;
    } catch (DeserializationException e) {
      throw new IOException("a pending drop for " + server + " cannot be read: " + e.getMessage(), e);
    } catch (Exception e) {
      throw new IOException("reading the pending drops of " + server + " failed: " + e.getMessage(), e);
    }
  }

  public void done(ServerName server, RegionInfo region) throws IOException {
    try {
      zk.delete().quietly().forPath(serverDir(server) + "/" + region.getEncodedName());
    } catch (Exception e) {
      throw new IOException("removing the pending drop of " + region.getRegionNameAsString() + " failed: "
          + e.getMessage(), e);
    }
  }
}
