package io.basalt.server.acl;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.hadoop.hbase.security.access.Permission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this server's {@link PermissionView} equal to the catalog's grants: a ZooKeeper watch (CuratorCache)
 * on the ACL entries rebuilds the view on every change, so a grant or revoke made on any server is in force
 * here as soon as ZooKeeper tells us (milliseconds). A damaged entry is logged and counts as no grants.
 */
public final class PermissionWatcher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PermissionWatcher.class);

  private final CuratorCache cache;
  private final String dir;
  private final AccessSettings settings;
  private volatile PermissionView view;

  public PermissionWatcher(CuratorFramework zk, PermissionStore store, AccessSettings settings) throws IOException {
    this.dir = store.dir();
    this.settings = settings;
    this.view = new PermissionView(store.all(), settings);
    try {
      zk.create().orSetData().creatingParentsIfNeeded().forPath(dir);
    } catch (Exception e) {
      throw new IOException("creating " + dir + " in ZooKeeper failed: " + e.getMessage(), e);
    }
    cache = CuratorCache.build(zk, dir);
    CountDownLatch loaded = new CountDownLatch(1);
    cache.listenable().addListener(CuratorCacheListener.builder()
        .forAll((type, before, after) -> rebuild())
        .forInitialized(loaded::countDown)
        .build());
    cache.start();
    try {
      if (!loaded.await(30, TimeUnit.SECONDS)) {
        throw new IOException("permissions in ZooKeeper (" + dir + ") did not load within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted loading permissions", e);
    }
    rebuild();
  }

  public PermissionView view() {
    return view;
  }

  private synchronized void rebuild() {
    Map<String, Map<String, List<Permission>>> entries = new LinkedHashMap<>();
    cache.stream().forEach(node -> {
      String path = node.getPath();
      if (path.length() <= dir.length() + 1 || node.getData() == null) {
        return; // the directory itself
      }
      String entry = path.substring(dir.length() + 1);
      try {
        entries.put(entry, PermissionCodec.decode(node.getData()));
      } catch (IOException e) {
        LOG.error("ACL entry {} cannot be read, it grants nothing until rewritten: {}", entry, e.getMessage());
      }
    });
    view = new PermissionView(entries, settings);
  }

  /** For a change this server just wrote: read it back now rather than wait for the watch. */
  synchronized void refresh(PermissionStore store) throws IOException {
    view = new PermissionView(store.all(), settings);
  }

  @Override
  public void close() {
    cache.close();
  }
}
