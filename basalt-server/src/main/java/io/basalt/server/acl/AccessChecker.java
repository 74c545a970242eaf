package io.basalt.server.acl;

import io.basalt.server.rpc.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's AccessChecker over Basalt's permission view: the {@code require...} checks the call rules use,
 * each refusing with {@link AccessDeniedException} in HBase's wording and writing the audit log.
 */
public final class AccessChecker {
  private final Supplier<PermissionView> views;
  private final UserGroups groups;
  private final AuditLog audit;

  public AccessChecker(Supplier<PermissionView> views, UserGroups groups, AuditLog audit) {
    this.views = views;
    this.groups = groups;
    this.audit = audit;
  }

  public PermissionView view() {
    return views.get();
  }

  public RequestUser user(Caller c) {
    String name = c.shortUser(); // the proven name under Kerberos, tokens or certificates; else the claimed one
    return new RequestUser(name, c.clusterMember() ? List.of() : groups.groupsOf(name), c.clusterMember());
  }

  /** A user named in a request (hasUserPermissions, a grant's target), with its groups. */
  public RequestUser named(String user) {
    String name = Caller.shortName(user);
    return new RequestUser(name, groups.groupsOf(name), false);
  }

  AuditLog audit() {
    return audit;
  }

  // ---------------------------------------------------------------- checks, as HBase's AccessChecker

  public void requireGlobal(RequestUser u, String request, Action a, String params) throws AccessDeniedException {
    if (view().global(u, a)) {
      allowed(u, "Global check allowed", request, context(u, null, null, "", params, a));
      return;
    }
    denied(u, "Global check failed", request, context(u, null, null, "", params, a));
    throw new AccessDeniedException("Insufficient permissions for user '" + u.name() + "' (global, action=" + a + ")");
  }

  /** Any one of {@code any} on the namespace (or globally). {@code extra}: table and families for the message. */
  public void requireNamespace(RequestUser u, String request, String namespace, String extraParams, Action... any)
      throws AccessDeniedException {
    Action last = null;
    for (Action a : any) {
      last = a;
      if (view().namespace(u, namespace, a)) {
        allowed(u, "Namespace permission granted", request, context(u, namespace, null, "",
            join("namespace=" + namespace, extraParams), a));
        return;
      }
    }
    String ctx = context(u, namespace, null, "", join("namespace=" + namespace, extraParams), last);
    denied(u, "Insufficient permissions", request, ctx);
    throw new AccessDeniedException("Insufficient permissions " + ctx);
  }

  /** HBase's requirePermission(table, family, qualifier): any one of {@code any} there or wider. */
  public void requireTable(RequestUser u, String request, TableName t, byte[] family, byte[] qualifier,
      Action... any) throws AccessDeniedException {
    Action last = null;
    String fam = familyString(family, qualifier);
    // HBase always adds a "filterUser" parameter here, empty unless given: hence the trailing comma
    String params = join(join("table=" + t.getNameWithNamespaceInclAsString(), fam.isEmpty() ? null : "family=" + fam),
        "");
    for (Action a : any) {
      last = a;
      if (view().table(u, t, family, qualifier, a)) {
        allowed(u, "Table permission granted", request, context(u, null, t, fam, params, a));
        return;
      }
    }
    String ctx = context(u, null, t, fam, params, last);
    denied(u, "Insufficient permissions", request, ctx);
    throw new AccessDeniedException("Insufficient permissions " + ctx);
  }

  /** HBase's requireAccess: a grant of one of {@code any} anywhere in the table. */
  public boolean hasAccess(RequestUser u, TableName t, Action... any) {
    for (Action a : any) {
      if (view().anyInTable(u, t, a)) {
        return true;
      }
    }
    return false;
  }

  /**
   * HBase's permissionGranted for data operations: the table, or every family asked for (each by a family
   * grant or by grants on every qualifier asked for). Null if granted, else the families of the refusal
   * for the message.
   */
  public String refusal(RequestUser u, Action a, TableName t, Map<byte[], List<byte[]>> families) {
    if (TableName.META_TABLE_NAME.equals(t) && a == Action.READ) {
      return null; // everyone reads hbase:meta
    }
    PermissionView v = view();
    if (v.table(u, t, null, null, a)) {
      return null;
    }
    if (families == null || families.isEmpty()) {
      return "";
    }
    for (Map.Entry<byte[], List<byte[]>> f : families.entrySet()) {
      if (v.table(u, t, f.getKey(), null, a)) {
        continue;
      }
      if (f.getValue() == null || f.getValue().isEmpty()) {
        return Bytes.toString(f.getKey());
      }
      for (byte[] q : f.getValue()) {
        if (!v.table(u, t, f.getKey(), q, a)) {
          return familyString(f.getKey(), q);
        }
      }
    }
    return null;
  }

  public static Map<byte[], List<byte[]>> familyMap() {
    return new TreeMap<>(Bytes.BYTES_COMPARATOR);
  }

  public static Map<byte[], List<byte[]>> familyMap(byte[] family, byte[] qualifier) {
    Map<byte[], List<byte[]>> m = familyMap();
    if (family != null) {
      List<byte[]> qs = new ArrayList<>();
      if (qualifier != null) {
        qs.add(qualifier);
      }
      m.put(family, qs);
    }
    return m;
  }

  /** HBase's toFamiliesString: {@code f1:q1|f1:q2|f2}. */
  public static String familiesString(Map<byte[], List<byte[]>> families) {
    if (families == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<byte[], List<byte[]>> f : families.entrySet()) {
      if (f.getValue() == null || f.getValue().isEmpty()) {
        sb.append(sb.length() > 0 ? "|" : "").append(Bytes.toString(f.getKey()));
      } else {
        for (byte[] q : f.getValue()) {
          sb.append(sb.length() > 0 ? "|" : "").append(Bytes.toString(f.getKey())).append(':').append(Bytes.toString(q));
        }
      }
    }
    return sb.toString();
  }

  static String familyString(byte[] family, byte[] qualifier) {
    if (family == null) {
      return "";
    }
    return Bytes.toString(family) + (qualifier != null ? ":" + Bytes.toString(qualifier) : "");
  }

  /** HBase's AuthResult.toContextString. */
  public static String context(RequestUser u, String namespace, TableName t, String families, String params,
      Action a) {
    StringBuilder sb = new StringBuilder("(user=").append(u.name().isEmpty() ? "UNKNOWN" : u.name()).append(", ");
    sb.append("scope=").append(namespace != null ? namespace : t == null ? "GLOBAL" : t.getNameWithNamespaceInclAsString())
        .append(", ");
    if (namespace == null && !families.isEmpty()) {
      sb.append("family=").append(families).append(", ");
    }
    if (params != null && !params.isEmpty()) {
      sb.append("params=[").append(params).append("],");
    }
    return sb.append("action=").append(a == null ? "" : a.toString()).append(")").toString();
  }

  static String join(String a, String b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return a + "," + b;
  }

  public static String tableParams(TableName t, Map<byte[], List<byte[]>> families) {
    String fam = familiesString(families);
    return join("table=" + t.getNameWithNamespaceInclAsString(), fam.isEmpty() ? null : "family=" + fam);
  }

  void allowed(RequestUser u, String reason, String request, String context) {
    if (administrative(request)) {
      audit.record(true, u.name(), reason, request, context);
    }
  }

  public void denied(RequestUser u, String reason, String request, String context) {
    audit.record(false, u.name(), reason, request, context);
  }

  /** Data calls let through are too many to log; everything else is an administrative call. */
  private static boolean administrative(String request) {
    return switch (request) {
      case "get", "exists", "scan", "put", "delete", "checkAndPut", "checkAndDelete", "append", "increment",
          "getTableNames", "getTableDescriptors", "listNamespaces" -> false;
      default -> true;
    };
  }
}
