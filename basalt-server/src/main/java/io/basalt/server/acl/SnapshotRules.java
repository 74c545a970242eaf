package io.basalt.server.acl;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.shaded.protobuf.generated.SnapshotProtos.SnapshotDescription;

/**
 * Snapshot calls as HBase 2.6's AccessController judges them by the stored snapshot's owner (the short name of
 * whoever took it while authorisation was on): its owner may delete it, restore it with ADMIN on the table, and
 * clone it under its table's own name (or elsewhere with ADMIN on the target namespace); anyone else needs global
 * ADMIN. Listing (owner or global ADMIN) is filtered in {@link MasterCallRules}. A snapshot the catalog does not
 * hold is let through, so the caller gets HBase's SnapshotDoesNotExistException rather than a refusal.
 */
final class SnapshotRules {
  private SnapshotRules() {}

  static void delete(AccessChecker checker, SnapshotFacts facts, RequestUser u, String name) throws IOException {
    Optional<SnapshotFacts.Stored> stored = facts.snapshot(name);
    if (stored.isEmpty() || owns(u, stored.get())) {
      return; // HBase: "Snapshot owner check allowed"
    }
    checker.requireGlobal(u, "deleteSnapshot " + name, Action.ADMIN, "");
  }

  /** HBase's RestoreSnapshot request: a restore when its table exists, else a clone into that table. */
  static void restoreOrClone(AccessChecker checker, SnapshotFacts facts, RequestUser u, SnapshotDescription request)
      throws IOException {
    String name = request.getName();
    Optional<SnapshotFacts.Stored> stored = facts.snapshot(name);
    if (stored.isEmpty()) {
      return;
    }
    boolean owner = owns(u, stored.get());
    TableName target = request.hasTable() && !request.getTable().isEmpty() ? TableName.valueOf(request.getTable())
        : stored.get().table();
    if (facts.tableExists(target)) {
      if (owner) {
        checker.requireTable(u, "restoreSnapshot " + name, target, null, null, Action.ADMIN);
      } else {
        checker.requireGlobal(u, "restoreSnapshot " + name, Action.ADMIN, "");
      }
    } else if (owner && target.equals(stored.get().table())) {
      return; // HBase: the owner may create a table of the snapshot's own table name
    } else if (owner) {
      checker.requireNamespace(u, "cloneSnapshot", target.getNamespaceAsString(), "", Action.ADMIN);
    } else {
      checker.requireGlobal(u, "cloneSnapshot " + name, Action.ADMIN, "");
    }
  }

  private static boolean owns(RequestUser u, SnapshotFacts.Stored s) {
    return !s.owner().isEmpty() && s.owner().equals(u.name());
  }
}
