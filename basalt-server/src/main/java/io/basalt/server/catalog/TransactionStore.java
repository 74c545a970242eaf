package io.basalt.server.catalog;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Split and move transactions in flight, one znode each ({@code ROOT/transactions/<id>}), written by the
 * active master before and after every step so that a new master finishes or undoes them. The record's
 * bytes belong to the procedure that wrote it.
 */
public final class TransactionStore {
  private final CuratorFramework zk;
  private final String dir;

  public TransactionStore(CuratorFramework zk, String root) {
    this.zk = zk;
    this.dir = root + "/transactions";
  }

  public void put(String id, byte[] record) throws IOException {
    String path = dir + "/" + id;
    try {
      if (zk.checkExists().forPath(path) == null) {
        zk.create().creatingParentsIfNeeded().forPath(path, record);
      } else {
        zk.setData().forPath(path, record);
      }
    } catch (Exception e) {
      throw new IOException("recording transaction " + id + " in ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  public void remove(String id) throws IOException {
    try {
      zk.delete().quietly().forPath(dir + "/" + id);
    } catch (Exception e) {
      throw new IOException("removing transaction " + id + " from ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  /** Every transaction in flight, by id. */
  public Map<String, byte[]> all() throws IOException {
    Map<String, byte[]> out = new LinkedHashMap<>();
    try {
      List<String> ids;
      try {
        ids = zk.getChildren().forPath(dir);
      } catch (KeeperException.NoNodeException e) {
        return out;
      }
      for (String id : ids.stream().sorted().toList()) {
        try {
          out.put(id, zk.getData().forPath(dir + "/" + id));
        } catch (KeeperException.NoNodeException e) {
          // finished meanwhile
        }
      }
      return out;
    } catch (Exception e) {
      throw new IOException("reading transactions from ZooKeeper failed: " + e.getMessage(), e);
    }
  }
}
