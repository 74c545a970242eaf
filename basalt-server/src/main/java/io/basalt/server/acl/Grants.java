package io.basalt.server.acl;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.access.NamespacePermission;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.security.access.TablePermission;
import org.apache.hadoop.hbase.security.access.UserPermission;

/**
 * Grant, revoke and the two questions about permissions (who has what; does this user have that), with the
 * checks HBase makes on their callers: changing or listing grants needs ADMIN at the scope concerned, a
 * superuser's grants cannot be changed by anyone else, and a user may always ask about itself.
 */
public final class Grants {
  private final AccessChecker checker;
  private final PermissionStore store;
  private final PermissionWatcher watcher;
  private final AccessSettings settings;

  public Grants(AccessChecker checker, PermissionStore store, PermissionWatcher watcher, AccessSettings settings) {
    this.checker = checker;
    this.store = store;
    this.watcher = watcher;
    this.settings = settings;
  }

  public void grant(RequestUser caller, UserPermission up, boolean merge) throws IOException {
    checkGrantOrRevoke(caller, "grant", up);
    store.grant(up, merge);
    watcher.refresh(store);
  }

  public void revoke(RequestUser caller, UserPermission up) throws IOException {
    checkGrantOrRevoke(caller, "revoke", up);
    store.revoke(up);
    watcher.refresh(store);
  }

  private void checkGrantOrRevoke(RequestUser caller, String request, UserPermission up) throws IOException {
    Permission p = up.getPermission();
    if (p instanceof TablePermission t) {
      checker.requireTable(caller, request, t.getTableName(), t.getFamily(), t.getQualifier(), Action.ADMIN);
    } else if (p instanceof NamespacePermission n) {
      checker.requireNamespace(caller, request, n.getNamespace(), "", Action.ADMIN);
    } else {
      checker.requireGlobal(caller, request, Action.ADMIN, "namespace=");
    }
    if (!checker.view().isSuperuser(caller)) {
      List<String> targets = new ArrayList<>();
      targets.add(up.getUser());
      if (!up.getUser().startsWith("@")) {
        checker.named(up.getUser()).groups().forEach(g -> targets.add("@" + g));
      }
      for (String target : targets) {
        boolean superuser = target.startsWith("@") ? settings.supergroups().contains(target.substring(1))
            : settings.superusers().contains(target);
        if (superuser) {
          String reason = "Granting or revoking superusers's or supergroups's permissions is not allowed";
          checker.denied(caller, reason, request, AccessChecker.context(caller, "hbase", null, "", "namespace=hbase",
              Action.ADMIN));
          throw new AccessDeniedException(reason);
        }
      }
    }
  }

  /**
   * HBase's getUserPermissions: the grants of one scope ({@code table} or {@code namespace}, else global with the
   * superusers added), optionally those of one user (and the groups it is in) or of one family/qualifier.
   */
  public List<UserPermission> list(RequestUser caller, String user, String namespace, TableName table, byte[] cf,
      byte[] cq) throws IOException {
    if (table != null) {
      checker.requireTable(caller, "getUserPermissions", table, cf, cq, Action.ADMIN);
    } else if (namespace != null) {
      checker.requireNamespace(caller, "getUserPermissions", namespace, "", Action.ADMIN);
    } else {
      checker.requireGlobal(caller, "getUserPermissions", Action.ADMIN, "");
    }
    String entry = table != null ? table.getNameAsString() : namespace != null ? "@" + namespace
        : PermissionStore.GLOBAL_ENTRY;
    Map<String, List<Permission>> byUser = checker.view().entries().getOrDefault(entry, Map.of());
    List<String> userGroups = user == null ? List.of() : checker.named(user).groups();
    boolean filter = table != null ? (cf != null || user != null) : user != null;
    List<UserPermission> out = new ArrayList<>();
    for (Map.Entry<String, List<Permission>> e : byUser.entrySet()) {
      String name = e.getKey();
      if (filter && user != null) {
        boolean match = name.startsWith("@") && !user.startsWith("@") ? userGroups.contains(name.substring(1))
            : name.equals(user);
        if (!match) {
          continue;
        }
      }
      for (Permission p : e.getValue()) {
        if (filter && cf != null && p instanceof TablePermission t
            && (!Arrays.equals(cf, t.getFamily()) || cq != null && !Arrays.equals(cq, t.getQualifier()))) {
          continue;
        }
        out.add(new UserPermission(name, p));
      }
    }
    if (table == null && namespace == null && user == null) {
      for (String su : settings.superusers()) {
        out.add(new UserPermission(su, Permission.newBuilder().withActions(Action.values()).build()));
      }
    }
    return out;
  }

  /** HBase's hasUserPermissions: for each permission, whether {@code user} (default: the caller) holds all of it. */
  public List<Boolean> has(RequestUser caller, String user, List<Permission> permissions) throws IOException {
    String name = user == null ? caller.name() : user;
    for (Permission p : permissions) {
      if (name.equals(caller.name())) {
        continue; // anyone may ask about itself
      }
      if (p instanceof TablePermission t) {
        checker.requireTable(caller, "hasUserPermissions", t.getTableName(), t.getFamily(), t.getQualifier(),
            Action.ADMIN);
      } else if (p instanceof NamespacePermission n) {
        checker.requireNamespace(caller, "hasUserPermissions", n.getNamespace(), "", Action.ADMIN);
      } else {
        checker.requireGlobal(caller, "hasUserPermissions", Action.ADMIN, "");
      }
    }
    RequestUser subject = name.equals(caller.name()) ? caller : checker.named(name);
    List<Boolean> out = new ArrayList<>();
    for (Permission p : permissions) {
      out.add(holds(subject, p));
    }
    return out;
  }

  /** The deprecated checkPermissions: refuses unless the caller holds every permission listed. */
  public void check(RequestUser caller, List<Permission> permissions) throws IOException {
    for (Permission p : permissions) {
      for (Action a : p.getActions()) {
        if (p instanceof TablePermission t) {
          String refused = checker.refusal(caller, a, t.getTableName(),
              AccessChecker.familyMap(t.getFamily(), t.getQualifier()));
          if (refused != null) {
            String ctx = AccessChecker.context(caller, null, t.getTableName(), refused, null, a);
            checker.denied(caller, "Insufficient permissions", "checkPermissions", ctx);
            throw new AccessDeniedException("Insufficient permissions " + ctx);
          }
        } else if (p instanceof NamespacePermission n) {
          checker.requireNamespace(caller, "checkPermissions", n.getNamespace(), null, a);
        } else {
          checker.requireGlobal(caller, "checkPermissions", a, "");
        }
      }
    }
  }

  boolean holds(RequestUser u, Permission p) {
    PermissionView v = checker.view();
    for (Action a : p.getActions()) {
      boolean ok;
      if (p instanceof TablePermission t) {
        ok = checker.refusal(u, a, t.getTableName(), AccessChecker.familyMap(t.getFamily(), t.getQualifier())) == null;
      } else if (p instanceof NamespacePermission n) {
        ok = v.namespace(u, n.getNamespace(), a);
      } else {
        ok = v.global(u, a);
      }
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
