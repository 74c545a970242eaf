package io.basalt.server.acl;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Column;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Condition;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto.ColumnValue;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto.MutationType;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * The checks HBase's AccessController makes on reads and writes of one region (its RegionObserver hooks):
 * Get and Scan need READ on the table, or on every family asked for; a read with only part of that (a family,
 * or qualifiers within one) goes ahead narrowed to what the user may read, as HBase's injected
 * AccessControlFilter would return, and one with none at all is refused. Put, Delete, Increment and Append need
 * WRITE on every family and qualifier they touch; a check-and-put or check-and-delete also needs READ and WRITE
 * on the column it compares.
 */
final class DataCallRules {
  /** HBase's AccessControlConstants.OP_ATTRIBUTE_ACL: a mutation's cell-level ACL. */
  static final String CELL_ACL_ATTRIBUTE = "acl";

  private final AccessChecker checker;
  private final Function<byte[], List<byte[]>> tableFamilies;

  /** {@code tableFamilies}: the families of the table of a region hosted here, by region name (none if unknown). */
  DataCallRules(AccessChecker checker, Function<byte[], List<byte[]>> tableFamilies) {
    this.checker = checker;
    this.tableFamilies = tableFamilies;
  }

  static TableName tableOf(ByteString regionName) throws IOException {
    try {
      return RegionInfo.getTable(regionName.toByteArray());
    } catch (RuntimeException e) {
      throw new org.apache.hadoop.hbase.DoNotRetryIOException("not a region name: " + regionName.toStringUtf8());
    }
  }

  // ---------------------------------------------------------------- reads

  /** Null if the columns may be read as asked, else those of them the user may read; refused if none. */
  List<Column> read(RequestUser u, String request, TableName t, List<Column> columns) throws AccessDeniedException {
    Map<byte[], List<byte[]>> families = AccessChecker.familyMap();
    for (Column c : columns) {
      List<byte[]> qs = families.computeIfAbsent(c.getFamily().toByteArray(), k -> new ArrayList<>());
      c.getQualifierList().forEach(q -> qs.add(q.toByteArray()));
    }
    if (checker.refusal(u, Action.READ, t, families) == null) {
      return null;
    }
    // HBase's fallback (hbase.security.access.early_out=true): allowed "with filter" if any family asked for is
    // readable through a family or qualifier grant, the cells filtered to those the user may read.
    PermissionView v = checker.view();
    List<Column> narrowed = new ArrayList<>();
    boolean any = false;
    for (Map.Entry<byte[], List<byte[]>> f : families.entrySet()) {
      byte[] family = f.getKey();
      boolean listed = !f.getValue().isEmpty();
      if (listed) {
        for (byte[] q : f.getValue()) {
          any |= v.table(u, t, family, q, Action.READ);
        }
      } else {
        any |= v.family(u, t, family, Action.READ);
      }
      Column.Builder keep = Column.newBuilder().setFamily(ByteString.copyFrom(family));
      if (v.table(u, t, family, null, Action.READ)) {
        f.getValue().forEach(q -> keep.addQualifier(ByteString.copyFrom(q)));
      } else {
        List<byte[]> readable = listed ? f.getValue().stream().filter(q -> v.table(u, t, family, q, Action.READ)).toList()
            : v.grantedQualifiers(u, t, family, Action.READ);
        if (readable.isEmpty()) {
          continue;
        }
        readable.forEach(q -> keep.addQualifier(ByteString.copyFrom(q)));
      }
      narrowed.add(keep.build());
    }
    if (!any || narrowed.isEmpty()) {
      String ctx = AccessChecker.context(u, null, t, AccessChecker.familiesString(families),
          AccessChecker.tableParams(t, families), Action.READ);
      checker.denied(u, "Insufficient permissions", request, ctx);
      throw new AccessDeniedException("Insufficient permissions for user '" + u.name() + "' (table=" + t
          + ", action=READ)");
    }
    return narrowed;
  }

  /**
   * A read of no family in particular is checked as a read of every family of the table, as HBase's region server
   * fills them in before its AccessController looks (so a user with some families' grants reads those). Not for
   * an existence check, which HBase's AccessController sees before that.
   */
  private List<Column> asked(ByteString regionName, List<Column> columns) {
    if (!columns.isEmpty()) {
      return columns;
    }
    List<Column> all = new ArrayList<>();
    for (byte[] f : tableFamilies.apply(regionName.toByteArray())) {
      all.add(Column.newBuilder().setFamily(ByteString.copyFrom(f)).build());
    }
    return all;
  }

  ClientProtos.Get get(RequestUser u, ByteString regionName, ClientProtos.Get get) throws IOException {
    TableName t = tableOf(regionName);
    List<Column> cols = get.getExistenceOnly() ? read(u, "exists", t, get.getColumnList())
        : read(u, "get", t, asked(regionName, get.getColumnList()));
    return cols == null ? get : get.toBuilder().clearColumn().addAllColumn(cols).build();
  }

  ClientProtos.Scan scan(RequestUser u, ByteString regionName, ClientProtos.Scan scan) throws IOException {
    List<Column> cols = read(u, "scan", tableOf(regionName), asked(regionName, scan.getColumnList()));
    return cols == null ? scan : scan.toBuilder().clearColumn().addAllColumn(cols).build();
  }

  // ---------------------------------------------------------------- writes

  /** The families and qualifiers a mutation touches: its inline columns and its cells from the cell block. */
  static Map<byte[], List<byte[]>> families(MutationProto m, List<Cell> cells) {
    Map<byte[], List<byte[]>> out = AccessChecker.familyMap();
    for (ColumnValue cv : m.getColumnValueList()) {
      List<byte[]> qs = out.computeIfAbsent(cv.getFamily().toByteArray(), k -> new ArrayList<>());
      cv.getQualifierValueList().forEach(q -> qs.add(q.getQualifier().toByteArray()));
    }
    for (Cell c : cells) {
      out.computeIfAbsent(CellUtil.cloneFamily(c), k -> new ArrayList<>()).add(CellUtil.cloneQualifier(c));
    }
    return out;
  }

  static String opOf(MutationType type) {
    return switch (type) {
      case PUT -> "put";
      case DELETE -> "delete";
      case INCREMENT -> "increment";
      case APPEND -> "append";
    };
  }

  void write(RequestUser u, ByteString regionName, MutationProto m, List<Cell> cells) throws IOException {
    TableName t = tableOf(regionName);
    for (org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair a : m.getAttributeList()) {
      if (a.getName().equals(CELL_ACL_ATTRIBUTE)) {
        // what HBase answers when it cannot keep cell ACLs; storing the cells without theirs would widen access
        throw new org.apache.hadoop.hbase.DoNotRetryIOException("Cell ACLs cannot be persisted");
      }
    }
    Map<byte[], List<byte[]>> families = families(m, cells);
    if (families.isEmpty() && m.getMutateType() == MutationType.DELETE) {
      // a row delete: HBase turns it into a family delete of every family before its AccessController looks
      for (byte[] f : tableFamilies.apply(regionName.toByteArray())) {
        families.put(f, new ArrayList<>(List.of(new byte[0])));
      }
    }
    require(u, opOf(m.getMutateType()), t, families, Action.WRITE);
  }

  /** HBase's preCheckAndPut / preCheckAndDelete: READ then WRITE on the compared column (not with a filter). */
  void condition(RequestUser u, TableName t, Condition c, MutationType type) throws AccessDeniedException {
    if (!c.hasFamily() || (type != MutationType.PUT && type != MutationType.DELETE)) {
      return;
    }
    Map<byte[], List<byte[]>> column = AccessChecker.familyMap(c.getFamily().toByteArray(),
        c.hasQualifier() ? c.getQualifier().toByteArray() : null);
    String op = type == MutationType.PUT ? "checkAndPut" : "checkAndDelete";
    require(u, op, t, column, Action.READ);
    require(u, op, t, column, Action.WRITE);
  }

  private void require(RequestUser u, String request, TableName t, Map<byte[], List<byte[]>> families, Action a)
      throws AccessDeniedException {
    String refused = checker.refusal(u, a, t, families);
    if (refused == null) {
      return;
    }
    String fam = refused.isEmpty() ? AccessChecker.familiesString(families) : refused;
    String params = AccessChecker.join("table=" + t.getNameWithNamespaceInclAsString(), fam.isEmpty() ? null : "family=" + fam);
    String ctx = AccessChecker.context(u, null, t, fam, params, a);
    checker.denied(u, "Insufficient permissions", request, ctx);
    throw new AccessDeniedException("Insufficient permissions " + ctx);
  }
}
