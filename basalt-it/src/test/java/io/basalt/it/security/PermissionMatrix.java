package io.basalt.it.security;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.security.SecurityCapability;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.GetUserPermissionsRequest;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A permission matrix run through the unmodified HBase client: users with grants at every scope (global,
 * namespace, table, family, qualifier, a group) each try the same operations; the answer of each (its result,
 * or "denied" for an AccessDeniedException) is recorded under {@code user/operation}. Run against Basalt and
 * against HBase with its AccessController, the two maps must be equal.
 */
final class PermissionMatrix {
  static final TableName T1 = TableName.valueOf("acl_t1");
  static final String NS = "aclns";
  static final TableName T2 = TableName.valueOf(NS, "t2");
  static final byte[] F1 = Bytes.toBytes("f1");
  static final byte[] F2 = Bytes.toBytes("f2");
  static final byte[] Q1 = Bytes.toBytes("q1");
  static final byte[] Q2 = Bytes.toBytes("q2");
  /** Every test user's groups, for the servers' static group mapping (HBase's and Basalt's key). */
  static final String ADMIN_SNAPSHOT = "snap_superuser";
  static final String GROUPS = "carol=analysts;alice=;walter=;fred=;quinn=;nadia=;nick=;tara=;gail=;nobody=;someone=";
  static final List<String> USERS = List.of("alice", "walter", "fred", "quinn", "nadia", "nick", "tara", "gail",
      "carol", "nobody");

  private PermissionMatrix() {}

  /** Creates the tables, data and grants as the superuser (the user running the servers and this test). */
  static void setUp(Connection admin, boolean grants) throws IOException {
    try (Admin a = admin.getAdmin()) {
      a.createNamespace(NamespaceDescriptor.create(NS).build());
      a.createTable(TableDescriptorBuilder.newBuilder(T1).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F1))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F2)).build());
      a.createTable(TableDescriptorBuilder.newBuilder(T2).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F1)).build());
      if (!grants) {
        return;
      }
      grant(a, "alice", Permission.newBuilder(T1).withActions(Action.READ));
      grant(a, "walter", Permission.newBuilder(T1).withActions(Action.WRITE));
      grant(a, "fred", Permission.newBuilder(T1).withFamily(F1).withActions(Action.READ, Action.WRITE));
      grant(a, "quinn", Permission.newBuilder(T1).withFamily(F1).withQualifier(Q1).withActions(Action.READ));
      grant(a, "nadia", Permission.newBuilder(NS).withActions(Action.ADMIN));
      grant(a, "nick", Permission.newBuilder(NS).withActions(Action.CREATE));
      grant(a, "tara", Permission.newBuilder(T1).withActions(Action.ADMIN));
      grant(a, "gail", Permission.newBuilder().withActions(Action.READ));
      grant(a, "@analysts", Permission.newBuilder(T1).withActions(Action.READ));
      a.snapshot(ADMIN_SNAPSHOT, T2); // owned by the superuser: no test user may see or delete it
    } finally {
      data(admin);
    }
  }

  private static void data(Connection admin) throws IOException {
    try (Table t = admin.getTable(T1)) {
      for (String row : List.of("r1", "r2", "r3")) {
        t.put(new Put(Bytes.toBytes(row)).addColumn(F1, Q1, Bytes.toBytes("a")).addColumn(F1, Q2, Bytes.toBytes("b"))
            .addColumn(F2, Q1, Bytes.toBytes("c")));
      }
    }
  }

  private static void grant(Admin a, String user, Permission.Builder p) throws IOException {
    a.grant(new UserPermission(user, p.build()), false);
  }

  static Connection connectAs(Configuration conf, String user) throws IOException {
    return ConnectionFactory.createConnection(conf, User.create(UserGroupInformation.createRemoteUser(user)));
  }

  /** Every user's answer to every operation, in a fixed order (writes go to each user's own row). */
  static Map<String, String> run(Configuration conf, Connection superuser) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (String user : USERS) {
      try (Connection c = connectAs(conf, user)) {
        for (Map.Entry<String, Callable<String>> op : operations(c, superuser, user).entrySet()) {
          out.put(user + "/" + op.getKey(), outcome(op.getValue()));
        }
      }
    }
    return out;
  }

  static String outcome(Callable<String> op) {
    try {
      return op.call();
    } catch (Throwable t) {
      if (t instanceof RetriesExhaustedWithDetailsException r) {
        int denied = 0;
        for (int i = 0; i < r.getNumExceptions(); i++) {
          denied += deniedIn(r.getCause(i)) ? 1 : 0;
        }
        return "denied " + denied + " of the batch";
      }
      return deniedIn(t) ? "denied" : "error " + t.getClass().getSimpleName();
    }
  }

  private static boolean deniedIn(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof AccessDeniedException) {
        return true;
      }
    }
    return false;
  }

  private static String cells(Result r) {
    return "ok " + r.size() + " cells";
  }

  private static Map<String, Callable<String>> operations(Connection c, Connection superuser, String user) {
    byte[] own = Bytes.toBytes("w-" + user);
    Map<String, Callable<String>> ops = new LinkedHashMap<>();
    ops.put("get row", () -> read(c, new Get(Bytes.toBytes("r1"))));
    ops.put("get f1", () -> read(c, new Get(Bytes.toBytes("r1")).addFamily(F1)));
    ops.put("get f1+f2", () -> read(c, new Get(Bytes.toBytes("r1")).addFamily(F1).addFamily(F2)));
    ops.put("get f1:q1", () -> read(c, new Get(Bytes.toBytes("r1")).addColumn(F1, Q1)));
    ops.put("get f1:q2", () -> read(c, new Get(Bytes.toBytes("r1")).addColumn(F1, Q2)));
    ops.put("exists", () -> {
      try (Table t = c.getTable(T1)) {
        return "ok " + t.exists(new Get(Bytes.toBytes("r1")).addFamily(F1));
      }
    });
    ops.put("scan", () -> scan(c, new Scan()));
    ops.put("scan f1", () -> scan(c, new Scan().addFamily(F1)));
    ops.put("put f1", () -> write(c, t -> t.put(new Put(own).addColumn(F1, Q1, Bytes.toBytes("x")))));
    ops.put("put f2", () -> write(c, t -> t.put(new Put(own).addColumn(F2, Q1, Bytes.toBytes("x")))));
    ops.put("delete f1:q1", () -> write(c, t -> t.delete(new Delete(own).addColumns(F1, Q1))));
    ops.put("delete row", () -> write(c, t -> t.delete(new Delete(own))));
    ops.put("increment", () -> write(c, t -> t.increment(new Increment(own).addColumn(F1, Bytes.toBytes("n"), 1))));
    ops.put("append", () -> write(c, t -> t.append(new Append(own).addColumn(F1, Bytes.toBytes("s"), Bytes.toBytes("+")))));
    ops.put("checkAndPut", () -> {
      try (Table t = c.getTable(T1)) {
        return "ok " + t.checkAndMutate(CheckAndMutate.newBuilder(own).ifNotExists(F1, Bytes.toBytes("c"))
            .build(new Put(own).addColumn(F1, Bytes.toBytes("c"), Bytes.toBytes("1")))).isSuccess();
      }
    });
    ops.put("batch put f1+f2", () -> {
      String o = outcome(() -> write(c, t -> t.put(List.of(new Put(own).addColumn(F1, Q2, Bytes.toBytes("y")),
          new Put(own).addColumn(F2, Q2, Bytes.toBytes("y"))))));
      try (Table t = superuser.getTable(T1)) { // whether the allowed Put of the batch was written
        return o + ", f1 put landed: " + t.exists(new Get(own).addColumn(F1, Q2));
      }
    });
    ops.put("batch get f1,f2", () -> {
      try (Table t = c.getTable(T1)) {
        Result[] rs = t.get(List.of(new Get(Bytes.toBytes("r2")).addFamily(F1), new Get(Bytes.toBytes("r2")).addFamily(F2)));
        return "ok " + rs[0].size() + "+" + rs[1].size() + " cells";
      }
    });
    ops.put("describe t1", () -> admin(c, a -> "ok " + a.getDescriptor(T1).getColumnFamilyCount() + " families"));
    ops.put("list tables", () -> admin(c, a -> {
      TreeSet<String> seen = new TreeSet<>();
      for (TableName t : a.listTableNames()) {
        if (t.equals(T1) || t.equals(T2)) {
          seen.add(t.getNameAsString());
        }
      }
      return "ok " + seen;
    }));
    ops.put("list namespaces", () -> admin(c, a -> {
      TreeSet<String> seen = new TreeSet<>();
      for (NamespaceDescriptor d : a.listNamespaceDescriptors()) {
        if (d.getName().equals(NS) || d.getName().equals("default")) {
          seen.add(d.getName());
        }
      }
      return "ok " + seen;
    }));
    ops.put("get namespace", () -> admin(c, a -> "ok " + a.getNamespaceDescriptor(NS).getName()));
    ops.put("create table in ns", () -> admin(c, a -> {
      TableName name = TableName.valueOf(NS, "new_" + user);
      a.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F1)).build());
      String owner = "ok, owner may write: " + ownerWrite(c, name, own);
      try (Admin sa = superuser.getAdmin()) {
        sa.disableTable(name);
        sa.deleteTable(name);
      }
      return owner;
    }));
    ops.put("create namespace", () -> admin(c, a -> {
      a.createNamespace(NamespaceDescriptor.create("ns_" + user).build());
      try (Admin sa = superuser.getAdmin()) {
        sa.deleteNamespace("ns_" + user);
      }
      return "ok";
    }));
    ops.put("flush t1", () -> admin(c, a -> {
      a.flush(T1);
      return "ok";
    }));
    ops.put("snapshot t1", () -> admin(c, a -> {
      // the taker owns the snapshot (HBase's SnapshotDescription.owner): lists it, may restore it (with ADMIN on
      // the table), clone it elsewhere only with ADMIN on the target namespace, and delete it
      String name = "snap_" + user;
      a.snapshot(name, T1);
      try {
        String owner = a.listSnapshots().stream().filter(d -> d.getName().equals(name))
            .map(d -> d.getOwner()).findFirst().orElse("(not listed)");
        String clone = outcome(() -> {
          a.cloneSnapshot(name, TableName.valueOf("clone_" + user));
          return "ok";
        });
        String restore = outcome(() -> {
          a.disableTable(T1);
          a.restoreSnapshot(name);
          a.enableTable(T1);
          return "ok";
        });
        String delete = outcome(() -> {
          a.deleteSnapshot(name);
          return "ok";
        });
        return "ok, owner " + owner + ", clone elsewhere: " + clone + ", restore: " + restore + ", delete: " + delete;
      } finally {
        try (Admin sa = superuser.getAdmin()) {
          if (sa.isTableDisabled(T1)) {
            sa.enableTable(T1);
          }
          if (sa.listSnapshots().stream().anyMatch(d -> d.getName().equals(name))) {
            sa.deleteSnapshot(name);
          }
        }
      }
    }));
    ops.put("list snapshots", () -> admin(c, a -> "ok " + a.listSnapshots().stream().map(d -> d.getName()).sorted()
        .toList()));
    ops.put("delete another's snapshot", () -> admin(c, a -> {
      a.deleteSnapshot(ADMIN_SNAPSHOT);
      return "ok (deleted)";
    }));
    ops.put("disable t2", () -> admin(c, a -> {
      a.disableTable(T2);
      try (Admin sa = superuser.getAdmin()) {
        sa.enableTable(T2);
      }
      return "ok";
    }));
    ops.put("balance", () -> admin(c, a -> {
      a.balance();
      return "ok";
    }));
    ops.put("grant on t1", () -> admin(c, a -> {
      UserPermission p = new UserPermission("someone", Permission.newBuilder(T1).withActions(Action.READ).build());
      a.grant(p, false);
      try (Admin sa = superuser.getAdmin()) {
        sa.revoke(p);
      }
      return "ok";
    }));
    ops.put("grant on ns", () -> admin(c, a -> {
      UserPermission p = new UserPermission("someone", Permission.newBuilder(NS).withActions(Action.READ).build());
      a.grant(p, false);
      try (Admin sa = superuser.getAdmin()) {
        sa.revoke(p);
      }
      return "ok";
    }));
    ops.put("user permissions of t1", () -> admin(c, a -> {
      TreeSet<String> users = new TreeSet<>();
      for (UserPermission p : a.getUserPermissions(GetUserPermissionsRequest.newBuilder(T1).build())) {
        if (USERS.contains(p.getUser()) || p.getUser().startsWith("@")) {
          users.add(p.getUser());
        }
      }
      return "ok " + users;
    }));
    ops.put("has READ on t1, f1:q1, ns", () -> admin(c, a -> "ok " + a.hasUserPermissions(List.of(
        Permission.newBuilder(T1).withActions(Action.READ).build(),
        Permission.newBuilder(T1).withFamily(F1).withQualifier(Q1).withActions(Action.READ).build(),
        Permission.newBuilder(NS).withActions(Action.CREATE).build()))));
    ops.put("capabilities", () -> admin(c, a -> "ok " + a.getSecurityCapabilities().contains(SecurityCapability.AUTHORIZATION)));
    return ops;
  }

  private interface TableOp {
    void apply(Table t) throws IOException;
  }

  private interface AdminOp {
    String apply(Admin a) throws IOException;
  }

  private static String read(Connection c, Get g) throws IOException {
    try (Table t = c.getTable(T1)) {
      return cells(t.get(g));
    }
  }

  private static String scan(Connection c, Scan s) throws IOException {
    s.withStartRow(Bytes.toBytes("r")).withStopRow(Bytes.toBytes("s"));
    int n = 0;
    try (Table t = c.getTable(T1); ResultScanner rs = t.getScanner(s)) {
      for (Result r : rs) {
        n += r.size();
      }
    }
    return "ok " + n + " cells";
  }

  private static String write(Connection c, TableOp op) throws IOException {
    return write(c, T1, op);
  }

  private static String write(Connection c, TableName table, TableOp op) throws IOException {
    try (Table t = c.getTable(table)) {
      op.apply(t);
      return "ok";
    }
  }

  /** The creator's own grant reaches HBase's region server through ZooKeeper a moment later: a bounded retry. */
  private static String ownerWrite(Connection c, TableName table, byte[] row) throws IOException {
    for (int attempt = 0; ; attempt++) {
      String o = outcome(() -> write(c, table, t -> t.put(new Put(row).addColumn(F1, Q1, Bytes.toBytes("o")))));
      if (!o.equals("denied") || attempt == 20) {
        return o;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted");
      }
    }
  }

  private static String admin(Connection c, AdminOp op) throws IOException {
    try (Admin a = c.getAdmin()) {
      return op.apply(a);
    }
  }

  /** The answers that differ between two runs, one line each. */
  static List<String> differences(Map<String, String> basalt, Map<String, String> hbase) {
    List<String> out = new ArrayList<>();
    for (String key : basalt.keySet()) {
      if (!basalt.get(key).equals(hbase.get(key))) {
        out.add(key + ": basalt '" + basalt.get(key) + "', hbase '" + hbase.get(key) + "'");
      }
    }
    return out;
  }
}
