package io.basalt.server.catalog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The completed snapshots, in ZooKeeper beside the rest of the catalog ({@code ROOT/snapshots/NAME}: a {@link
 * SnapshotRecord}) so that a new master knows them, cached by the active master, the only writer.
 */
public final class SnapshotCatalog {
  private final CuratorFramework zk;
  private final String dir;
  private final Map<String, SnapshotRecord> snapshots = new ConcurrentHashMap<>();

  public SnapshotCatalog(CuratorFramework zk, String root) {
    this.zk = zk;
    this.dir = root + "/snapshots";
  }

  public synchronized void load() throws IOException {
    snapshots.clear();
    try {
      List<String> names;
      try {
        names = zk.getChildren().forPath(dir);
      } catch (KeeperException.NoNodeException e) {
        names = List.of();
      }
      for (String n : names) {
        snapshots.put(n, SnapshotRecord.decode(zk.getData().forPath(dir + "/" + n)));
      }
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("reading the snapshots from ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  public Optional<SnapshotRecord> get(String name) {
    return Optional.ofNullable(snapshots.get(name));
  }

  /** Oldest first, as HBase lists them. */
  public List<SnapshotRecord> all() {
    List<SnapshotRecord> out = new ArrayList<>(snapshots.values());
    out.sort(Comparator.comparingLong(SnapshotRecord::creationTime).thenComparing(SnapshotRecord::name));
    return out;
  }

  /** Creates or overwrites the snapshot's node. */
  public synchronized void put(SnapshotRecord s) throws IOException {
    String path = dir + "/" + s.name();
    try {
      if (zk.checkExists().forPath(path) == null) {
        zk.create().creatingParentsIfNeeded().forPath(path, s.encode());
      } else {
        zk.setData().forPath(path, s.encode());
      }
    } catch (Exception e) {
      throw new IOException("writing " + path + " to ZooKeeper failed: " + e.getMessage(), e);
    }
    snapshots.put(s.name(), s);
  }

  /** Already gone is fine. */
  public synchronized void remove(String name) throws IOException {
    try {
      zk.delete().quietly().forPath(dir + "/" + name);
    } catch (Exception e) {
      throw new IOException("deleting snapshot " + name + " from ZooKeeper failed: " + e.getMessage(), e);
    }
    snapshots.remove(name);
  }
}
