package io.basalt.server.acl;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.access.NamespacePermission;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.TablePermission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Granted permissions in the catalog, one znode per entry as HBase keys its {@code hbase:acl} rows
 * ({@code ROOT/acl/hbase:acl} for global grants, {@code ROOT/acl/@ns} for a namespace, {@code ROOT/acl/ns:t} for
 * a table). A grant or revoke rewrites its entry with the znode's version as a guard, so two concurrent changes
 * of one entry never lose either. Every server watches the entries ({@link PermissionWatcher}).
 */
public final class PermissionStore {
  static final String GLOBAL_ENTRY = "hbase:acl";
  private static final int MAX_ATTEMPTS = 50;

  private final CuratorFramework zk;
  private final String dir;

  public PermissionStore(CuratorFramework zk, String root) {
    this.zk = zk;
    this.dir = root + "/acl";
  }

  String dir() {
    return dir;
  }

  static String entryOf(Permission p) {
    if (p instanceof TablePermission t) {
      return t.getTableName().getNameAsString();
    }
    if (p instanceof NamespacePermission n) {
      return "@" + n.getNamespace();
    }
    return GLOBAL_ENTRY;
  }

  /** Adds {@code up}'s actions: replacing what the user had at that exact scope, or adding to it ({@code merge}). */
  public void grant(UserPermission up, boolean merge) throws IOException {
    if (up.getPermission().getActions().length == 0) {
      throw new DoNotRetryIOException("No actions associated with user '" + up.getUser() + "'");
    }
    update(entryOf(up.getPermission()), byUser -> {
      List<Permission> perms = byUser.computeIfAbsent(up.getUser(), k -> new ArrayList<>());
      Set<Permission.Action> actions = EnumSet.noneOf(Permission.Action.class);
      Permission existing = sameScope(perms, up.getPermission());
      if (existing != null) {
        perms.remove(existing);
        if (merge) {
          actions.addAll(Arrays.asList(existing.getActions()));
        }
      }
      actions.addAll(Arrays.asList(up.getPermission().getActions()));
      perms.add(withActions(up.getPermission(), actions));
    });
  }

  /** Takes {@code up}'s actions away at that exact scope (all of them if it names none). */
  public void revoke(UserPermission up) throws IOException {
    update(entryOf(up.getPermission()), byUser -> {
      List<Permission> perms = byUser.get(up.getUser());
      Permission existing = perms == null ? null : sameScope(perms, up.getPermission());
      if (existing == null) {
        return;
      }
      perms.remove(existing);
      Set<Permission.Action> left = EnumSet.noneOf(Permission.Action.class);
      left.addAll(Arrays.asList(existing.getActions()));
      Permission.Action[] revoked = up.getPermission().getActions();
      if (revoked.length == 0) {
        left.clear();
      } else {
        Arrays.asList(revoked).forEach(left::remove);
      }
      if (!left.isEmpty()) {
        perms.add(withActions(existing, left));
      }
      if (perms.isEmpty()) {
        byUser.remove(up.getUser());
      }
    });
  }

  /** A deleted table's grants go with it (HBase's postDeleteTable). */
  public void removeTable(TableName table) throws IOException {
    remove(table.getNameAsString());
  }

  /** A deleted namespace's own grants go with it (HBase's postDeleteNamespace). */
  public void removeNamespace(String namespace) throws IOException {
    remove("@" + namespace);
  }

  /** Every entry's permissions by user, read now (the watcher keeps the same picture current). */
  public Map<String, Map<String, List<Permission>>> all() throws IOException {
    Map<String, Map<String, List<Permission>>> out = new LinkedHashMap<>();
    try {
      List<String> entries;
      try {
        entries = zk.getChildren().forPath(dir);
      } catch (KeeperException.NoNodeException e) {
        return out;
      }
      for (String entry : entries) {
        try {
          out.put(entry, PermissionCodec.decode(zk.getData().forPath(dir + "/" + entry)));
        } catch (KeeperException.NoNodeException e) {
          // removed meanwhile
        }
      }
      return out;
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("reading permissions from ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  private static Permission sameScope(List<Permission> perms, Permission wanted) {
    for (Permission p : perms) {
      if (p.equalsExceptActions(wanted)) {
        return p;
      }
    }
    return null;
  }

  static Permission withActions(Permission scope, Set<Permission.Action> actions) {
    Permission.Action[] a = actions.toArray(new Permission.Action[0]);
    if (scope instanceof TablePermission t) {
      return Permission.newBuilder(t.getTableName()).withFamily(t.getFamily()).withQualifier(t.getQualifier())
          .withActions(a).build();
    }
    if (scope instanceof NamespacePermission n) {
      return Permission.newBuilder(n.getNamespace()).withActions(a).build();
    }
    return Permission.newBuilder().withActions(a).build();
  }

  private interface Change {
    void apply(Map<String, List<Permission>> byUser);
  }

  /** Read, change and write one entry, again from the start if another server changed it in between. */
  private void update(String entry, Change change) throws IOException {
    String path = dir + "/" + entry;
    try {
      for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        Stat stat = new Stat();
        Map<String, List<Permission>> byUser;
        boolean exists;
        try {
          byUser = PermissionCodec.decode(zk.getData().storingStatIn(stat).forPath(path));
          exists = true;
        } catch (KeeperException.NoNodeException e) {
          byUser = new LinkedHashMap<>();
          exists = false;
        }
        change.apply(byUser);
        try {
          if (!exists) {
            if (byUser.isEmpty()) {
              return;
            }
            zk.create().creatingParentsIfNeeded().forPath(path, PermissionCodec.encode(byUser));
          } else if (byUser.isEmpty()) {
            zk.delete().withVersion(stat.getVersion()).forPath(path);
          } else {
            zk.setData().withVersion(stat.getVersion()).forPath(path, PermissionCodec.encode(byUser));
          }
          return;
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
            | KeeperException.NoNodeException raced) {
          // another grant or revoke of this entry got in first: apply ours to its result
        }
      }
      throw new IOException("permissions of " + entry + " kept changing under " + MAX_ATTEMPTS + " attempts");
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("writing permissions of " + entry + " to ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  private void remove(String entry) throws IOException {
    try {
      zk.delete().quietly().forPath(dir + "/" + entry);
    } catch (Exception e) {
      throw new IOException("removing permissions of " + entry + " from ZooKeeper failed: " + e.getMessage(), e);
    }
  }
}
