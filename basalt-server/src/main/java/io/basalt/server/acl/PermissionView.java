package io.basalt.server.acl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.access.NamespacePermission;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.security.access.TablePermission;

/**
 * An immutable picture of every grant, and HBase's rules for reading it (its {@code AuthManager}): a global
 * grant covers every namespace, a namespace grant every table in it, a table grant every family, a family
 * grant every qualifier; a grant to {@code @group} counts for the group's members; superusers and the
 * cluster's own servers may do anything.
 */
public final class PermissionView {
  public static final PermissionView EMPTY = new PermissionView(Map.of(), AccessSettings.OFF);

  private final Map<String, List<Permission>> global = new HashMap<>();
  private final Map<String, Map<String, List<Permission>>> namespaces = new HashMap<>();
  private final Map<TableName, Map<String, List<Permission>>> tables = new HashMap<>();
  private final Map<String, Map<String, List<Permission>>> entries;
  private final AccessSettings settings;

  /** {@code entries}: as {@link PermissionStore#all()} returns them. */
  public PermissionView(Map<String, Map<String, List<Permission>>> entries, AccessSettings settings) {
    this.entries = entries;
    this.settings = settings;
    for (Map.Entry<String, Map<String, List<Permission>>> e : entries.entrySet()) {
      String entry = e.getKey();
      if (entry.equals(PermissionStore.GLOBAL_ENTRY)) {
        global.putAll(e.getValue());
      } else if (entry.startsWith("@")) {
        namespaces.put(entry.substring(1), e.getValue());
      } else {
        tables.put(TableName.valueOf(entry), e.getValue());
      }
    }
  }

  /** The stored entries (for GetUserPermissions). */
  Map<String, Map<String, List<Permission>>> entries() {
    return entries;
  }

  public boolean isSuperuser(RequestUser u) {
    if (u.member() || settings.superusers().contains(u.name())) {
      return true;
    }
    for (String g : u.groups()) {
      if (settings.supergroups().contains(g)) {
        return true;
      }
    }
    return false;
  }

  /** The user's own grants and its groups' ({@code @group}) in one scope. */
  private static List<Permission> of(Map<String, List<Permission>> byUser, RequestUser u) {
    if (byUser == null) {
      return List.of();
    }
    List<Permission> out = new ArrayList<>(byUser.getOrDefault(u.name(), List.of()));
    for (String g : u.groups()) {
      out.addAll(byUser.getOrDefault("@" + g, List.of()));
    }
    return out;
  }

  public boolean global(RequestUser u, Action a) {
    if (isSuperuser(u)) {
      return true;
    }
    for (Permission p : of(global, u)) {
      if (p.implies(a)) {
        return true;
      }
    }
    return false;
  }

  public boolean namespace(RequestUser u, String namespace, Action a) {
    if (global(u, a)) {
      return true;
    }
    for (Permission p : of(namespaces.get(namespace), u)) {
      if (((NamespacePermission) p).implies(namespace, a)) {
        return true;
      }
    }
    return false;
  }

  /** HBase's authorizeUserTable: the table, or exactly this family / family and qualifier, or wider. */
  public boolean table(RequestUser u, TableName t, byte[] family, byte[] qualifier, Action a) {
    if (namespace(u, t.getNamespaceAsString(), a)) {
      return true;
    }
    for (Permission p : of(tables.get(t), u)) {
      if (((TablePermission) p).implies(t, family, qualifier, a)) {
        return true;
      }
    }
    return false;
  }

  /**
   * HBase's authorizeUserFamily: a table grant for this family, whatever qualifier it names (so a grant on
   * {@code f:q} makes a read of family {@code f} possible, filtered to {@code q}); wider grants not counted.
   */
  public boolean family(RequestUser u, TableName t, byte[] family, Action a) {
    for (Permission p : of(tables.get(t), u)) {
      if (((TablePermission) p).implies(t, family, a)) {
        return true;
      }
    }
    return false;
  }

  /** HBase's accessUserTable: any grant of {@code a} within the table, at any scope down to a qualifier. */
  public boolean anyInTable(RequestUser u, TableName t, Action a) {
    if (namespace(u, t.getNamespaceAsString(), a)) {
      return true;
    }
    for (Permission p : of(tables.get(t), u)) {
      if (p.implies(a)) {
        return true;
      }
    }
    return false;
  }

  /** The qualifiers of {@code family} the user holds {@code a} on through qualifier-scoped grants. */
  public List<byte[]> grantedQualifiers(RequestUser u, TableName t, byte[] family, Action a) {
    List<byte[]> out = new ArrayList<>();
    for (Permission p : of(tables.get(t), u)) {
      TablePermission tp = (TablePermission) p;
      if (tp.hasQualifier() && tp.implies(t, family, tp.getQualifier(), a)
          && out.stream().noneMatch(q -> java.util.Arrays.equals(q, tp.getQualifier()))) {
        out.add(tp.getQualifier());
      }
    }
    return out;
  }
}
