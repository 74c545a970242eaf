package io.basalt.server.catalog;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.hadoop.hbase.ServerName;

/**
 * Which member of each replicated region is its primary now, as the members themselves report it: the
 * member whose replica group elected it writes {@code ROOT/primaries/ENCODED} = its server name. The group's
 * election is the truth (a member that is not primary refuses writes whatever this says); this is where
 * clients are sent first, through {@code hbase:meta}. Region servers write, the active master reads.
 */
public final class Primaries implements AutoCloseable {
  private final CuratorFramework zk;
  private final String dir;
  private final Map<String, ServerName> primaries = new ConcurrentHashMap<>();
  private final AtomicLong version = new AtomicLong();
  private volatile CuratorCache cache;

  public Primaries(CuratorFramework zk, String root) {
    this.zk = zk;
    this.dir = root + "/primaries";
  }

  /** A member reports that its group elected it (idempotent: unchanged data is not written again). */
  public void publish(String encodedRegion, ServerName server) throws Exception {
    String path = dir + "/" + encodedRegion;
    byte[] data = server.getServerName().getBytes(StandardCharsets.UTF_8);
    try {
      zk.setData().forPath(path, data);
    } catch (org.apache.zookeeper.KeeperException.NoNodeException e) {
      try {
        zk.create().creatingParentsIfNeeded().forPath(path, data);
      } catch (org.apache.zookeeper.KeeperException.NodeExistsException raced) {
        zk.setData().forPath(path, data);
      }
    }
  }

  /** What ZooKeeper says now (one read; for a member checking its own report). */
  public Optional<ServerName> read(String encodedRegion) throws Exception {
    try {
      return Optional.of(parse(zk.getData().forPath(dir + "/" + encodedRegion)));
    } catch (org.apache.zookeeper.KeeperException.NoNodeException e) {
      return Optional.empty();
    }
  }

  /** The master forgets a dropped region's primary. */
  public void remove(String encodedRegion) throws Exception {
    zk.delete().quietly().forPath(dir + "/" + encodedRegion);
    if (primaries.remove(encodedRegion) != null) {
      version.incrementAndGet();
    }
  }

  /** Starts following the reports (the active master). */
  public void watch() throws Exception {
    zk.create().orSetData().creatingParentsIfNeeded().forPath(dir);
    CuratorCache c = CuratorCache.build(zk, dir);
    c.listenable().addListener(CuratorCacheListener.builder()
        .forCreatesAndChanges((old, node) -> changed(node, false))
        .forDeletes(node -> changed(node, true))
        .build());
    c.start();
    cache = c;
  }

  private void changed(ChildData node, boolean deleted) {
    if (node.getPath().length() <= dir.length() + 1) {
      return;
    }
    String encoded = node.getPath().substring(dir.length() + 1);
    if (deleted) {
      primaries.remove(encoded);
    } else {
      try {
        primaries.put(encoded, parse(node.getData()));
      } catch (IllegalArgumentException unreadable) {
        return;
      }
    }
    version.incrementAndGet();
  }

  private static ServerName parse(byte[] data) {
    return ServerName.valueOf(new String(data, StandardCharsets.UTF_8));
  }

  public Optional<ServerName> primary(String encodedRegion) {
    return Optional.ofNullable(primaries.get(encodedRegion));
  }

  /** Increases with every change seen (for views built from it). */
  public long version() {
    return version.get();
  }

  @Override
  public void close() {
    CuratorCache c = cache;
    if (c != null) {
      c.close();
    }
  }
}
