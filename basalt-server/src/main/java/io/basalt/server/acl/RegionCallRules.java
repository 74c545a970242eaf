package io.basalt.server.acl;

import io.basalt.server.rpc.CallGuard.Admitted;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionAction;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionActionResult;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ResultOrException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * ClientService and AdminService calls on a region server (and the master's hbase:meta), checked as HBase's
 * AccessController checks them. A batch ({@code Multi}) is checked action by action as HBase does: a refused
 * action is cut out of the request (with its cells) and answered with its AccessDeniedException, the others run;
 * a refused atomic group (row mutations, check-and-mutate) is refused as a whole.
 */
final class RegionCallRules {
  private final AccessChecker checker;
  private final DataCallRules data;
  private final ScannerOwners scanners = new ScannerOwners();

  RegionCallRules(AccessChecker checker, java.util.function.Function<byte[], List<byte[]>> tableFamilies) {
    this.checker = checker;
    this.data = new DataCallRules(checker, tableFamilies);
  }

  Admitted client(RequestUser u, String method, Message request, List<Cell> cells) throws IOException {
    switch (method) {
      case "Get" -> {
        ClientProtos.GetRequest r = (ClientProtos.GetRequest) request;
        ClientProtos.Get get = data.get(u, r.getRegion().getValue(), r.getGet());
        return Admitted.as(get == r.getGet() ? r : r.toBuilder().setGet(get).build());
      }
      case "Scan" -> {
        ClientProtos.ScanRequest r = (ClientProtos.ScanRequest) request;
        if (!r.hasScan()) { // a later call of a scanner opened with a check: its owner's only
          scanners.check(r.getScannerId(), u.name());
          if (r.getCloseScanner()) {
            scanners.closed(r.getScannerId());
          }
          return Admitted.as(r);
        }
        ClientProtos.Scan scan = data.scan(u, r.getRegion().getValue(), r.getScan());
        ClientProtos.ScanRequest run = scan == r.getScan() ? r : r.toBuilder().setScan(scan).build();
        return new Admitted() {
          @Override
          public Message request() {
            return run;
          }

          @Override
          public Message complete(Message response) {
            ClientProtos.ScanResponse sr = (ClientProtos.ScanResponse) response;
            if (sr.hasScannerId() && sr.getMoreResultsInRegion()) {
              scanners.opened(sr.getScannerId(), u.name());
            }
            return response;
          }
        };
      }
      case "Mutate" -> {
        ClientProtos.MutateRequest r = (ClientProtos.MutateRequest) request;
        TableName t = DataCallRules.tableOf(r.getRegion().getValue());
        if (r.hasCondition()) {
          data.condition(u, t, r.getCondition(), r.getMutation().getMutateType());
        }
        data.write(u, r.getRegion().getValue(), r.getMutation(), cells);
        return Admitted.as(r);
      }
      case "Multi" -> {
        return multi(u, (MultiRequest) request, cells);
      }
      case "BulkLoadHFile" -> {
        ClientProtos.BulkLoadHFileRequest r = (ClientProtos.BulkLoadHFileRequest) request;
        TableName t = DataCallRules.tableOf(r.getRegion().getValue());
        for (ClientProtos.BulkLoadHFileRequest.FamilyPath fp : r.getFamilyPathList()) {
          checker.requireTable(u, "preBulkLoadHFile", t, fp.getFamily().toByteArray(), null, Action.ADMIN,
              Action.CREATE);
        }
        return Admitted.as(r);
      }
      case "PrepareBulkLoad" -> {
        ClientProtos.PrepareBulkLoadRequest r = (ClientProtos.PrepareBulkLoadRequest) request;
        requireAccess(u, "prePrepareBulkLoad", org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil.toTableName(
            r.getTableName()));
        return Admitted.as(r);
      }
      case "CleanupBulkLoad" -> {
        ClientProtos.CleanupBulkLoadRequest r = (ClientProtos.CleanupBulkLoadRequest) request;
        if (r.hasRegion()) {
          requireAccess(u, "preCleanupBulkLoad", DataCallRules.tableOf(r.getRegion().getValue()));
        }
        return Admitted.as(r);
      }
      case "ExecService" -> {
        ClientProtos.CoprocessorServiceRequest r = (ClientProtos.CoprocessorServiceRequest) request;
        if (io.basalt.server.bulk.BulkLoadCall.SERVICE.equals(r.getCall().getServiceName())) {
          // basalt import writes rows of any family of the table: WRITE on the whole table, not per family.
          checker.requireTable(u, "bulkLoad", DataCallRules.tableOf(r.getRegion().getValue()), null, null,
              Action.WRITE);
        }
        return Admitted.as(r); // AccessControlService and AuthenticationService check their own calls
      }
      default -> {
        checker.requireGlobal(u, method, Action.ADMIN, "");
        return Admitted.as(request);
      }
    }
  }

  private void requireAccess(RequestUser u, String request, TableName t) throws AccessDeniedException {
    if (checker.hasAccess(u, t, Action.ADMIN, Action.CREATE)) {
      return;
    }
    String ctx = AccessChecker.context(u, null, t, "", "table=" + t.getNameWithNamespaceInclAsString(), Action.CREATE);
    checker.denied(u, "Insufficient permissions", request, ctx);
    throw new AccessDeniedException("Insufficient permissions " + ctx);
  }

  /** AdminService of a region server: flush and compact need ADMIN or CREATE on the table; looking is free. */
  Admitted admin(RequestUser u, String method, Message request) throws IOException {
    switch (method) {
      case "FlushRegion" -> {
        TableName t = DataCallRules.tableOf(((AdminProtos.FlushRegionRequest) request).getRegion().getValue());
        checker.requireTable(u, "flush", t, null, null, Action.ADMIN, Action.CREATE);
      }
      case "CompactRegion" -> {
        TableName t = DataCallRules.tableOf(((AdminProtos.CompactRegionRequest) request).getRegion().getValue());
        checker.requireTable(u, "compact", t, null, null, Action.ADMIN, Action.CREATE);
      }
      case "GetOnlineRegion", "GetRegionInfo", "GetServerInfo", "GetRegionLoad" -> {
        // HBase does not check these
      }
      default -> checker.requireGlobal(u, method, Action.ADMIN, "");
    }
    return Admitted.as(request);
  }

  // ---------------------------------------------------------------- Multi

  private Admitted multi(RequestUser u, MultiRequest r, List<Cell> cells) throws IOException {
    MultiRequest.Builder kept = r.toBuilder().clearRegionAction();
    List<Cell> keptCells = new ArrayList<>();
    Map<Integer, IOException> refusedGroups = new TreeMap<>();
    Map<Integer, List<ResultOrException>> refusedActions = new TreeMap<>();
    int pos = 0;
    for (int g = 0; g < r.getRegionActionCount(); g++) {
      RegionAction group = r.getRegionAction(g);
      int groupStart = pos;
      for (ClientProtos.Action a : group.getActionList()) {
        pos += a.hasMutation() ? a.getMutation().getAssociatedCellCount() : 0;
      }
      TableName t = DataCallRules.tableOf(group.getRegion().getValue());
      if (group.getAtomic() || group.hasCondition()) {
        try {
          int at = groupStart;
          for (ClientProtos.Action a : group.getActionList()) {
            if (a.hasMutation()) {
              int n = a.getMutation().getAssociatedCellCount();
              if (group.hasCondition() && group.getActionCount() == 1) {
                data.condition(u, t, group.getCondition(), a.getMutation().getMutateType());
              }
              data.write(u, group.getRegion().getValue(), a.getMutation(), cells.subList(at, at + n));
              at += n;
            } else if (a.hasGet()) {
              data.get(u, group.getRegion().getValue(), a.getGet());
            }
          }
          kept.addRegionAction(group);
          keptCells.addAll(cells.subList(groupStart, pos));
        } catch (AccessDeniedException e) {
          refusedGroups.put(g, e);
          kept.addRegionAction(RegionAction.newBuilder().setRegion(group.getRegion()).setAtomic(false));
        }
        continue;
      }
      int count = group.getActionCount();
      ClientProtos.Action[] run = new ClientProtos.Action[count];
      List<List<Cell>> its = new ArrayList<>();
      AccessDeniedException[] refused = new AccessDeniedException[count];
      int at = groupStart;
      for (int i = 0; i < count; i++) {
        ClientProtos.Action a = group.getAction(i);
        int n = a.hasMutation() ? a.getMutation().getAssociatedCellCount() : 0;
        its.add(cells.subList(at, at + n));
        at += n;
        run[i] = a;
        try {
          if (a.hasMutation()) {
            data.write(u, group.getRegion().getValue(), a.getMutation(), its.get(i));
          } else if (a.hasGet()) {
            ClientProtos.Get get = data.get(u, group.getRegion().getValue(), a.getGet());
            run[i] = get == a.getGet() ? a : a.toBuilder().setGet(get).build();
          }
        } catch (AccessDeniedException e) {
          refused[i] = e;
        }
      }
      refuseWholeBatches(group, refused);
      RegionAction.Builder keptGroup = group.toBuilder().clearAction();
      for (int i = 0; i < count; i++) {
        if (refused[i] == null) {
          keptGroup.addAction(run[i]);
          keptCells.addAll(its.get(i));
        } else {
          ClientProtos.Action a = group.getAction(i);
          refusedActions.computeIfAbsent(g, k -> new ArrayList<>()).add(ResultOrException.newBuilder()
              .setIndex(a.hasIndex() ? a.getIndex() : i).setException(exception(refused[i])).build());
        }
      }
      kept.addRegionAction(keptGroup);
    }
    if (refusedGroups.isEmpty() && refusedActions.isEmpty()) {
      return Admitted.as(r);
    }
    MultiRequest narrowed = kept.build();
    return new Admitted() {
      @Override
      public Message request() {
        return narrowed;
      }

      @Override
      public List<Cell> cells(List<Cell> original) {
        return keptCells;
      }

      @Override
      public Message complete(Message response) {
        MultiResponse.Builder b = ((MultiResponse) response).toBuilder();
        for (int g = 0; g < b.getRegionActionResultCount(); g++) {
          if (refusedGroups.containsKey(g)) {
            b.setRegionActionResult(g, RegionActionResult.newBuilder().setException(exception(refusedGroups.get(g))));
          } else if (refusedActions.containsKey(g)) {
            RegionActionResult.Builder rb = b.getRegionActionResult(g).toBuilder();
            if (!rb.hasException()) {
              refusedActions.get(g).forEach(rb::addResultOrException);
            }
            b.setRegionActionResult(g, rb);
          }
        }
        return b.build();
      }
    };
  }

  /**
   * HBase's region server applies the Puts and Deletes of a batch between Increments and Appends as one batch,
   * whose AccessController hooks run in row order before anything is written: one refused mutation fails them all,
   * with the refusal of the first in row order. Gets, Increments and Appends stand alone.
   */
  private static void refuseWholeBatches(RegionAction group, AccessDeniedException[] refused) {
    List<Integer> batch = new ArrayList<>();
    for (int i = 0; i <= group.getActionCount(); i++) {
      ClientProtos.Action a = i < group.getActionCount() ? group.getAction(i) : null;
      if (a != null && !a.hasMutation()) {
        continue;
      }
      boolean putOrDelete = a != null && (a.getMutation().getMutateType() == ClientProtos.MutationProto.MutationType.PUT
          || a.getMutation().getMutateType() == ClientProtos.MutationProto.MutationType.DELETE);
      if (putOrDelete) {
        batch.add(i);
        continue;
      }
      AccessDeniedException first = null;
      ByteString firstRow = null;
      for (int j : batch) {
        ByteString row = group.getAction(j).getMutation().getRow();
        if (refused[j] != null && (firstRow == null || Bytes.BYTES_COMPARATOR.compare(row.toByteArray(),
            firstRow.toByteArray()) < 0)) {
          first = refused[j];
          firstRow = row;
        }
      }
      if (first != null) {
        for (int j : batch) {
          refused[j] = first;
        }
      }
      batch.clear();
    }
  }

  static NameBytesPair exception(IOException e) {
    return NameBytesPair.newBuilder().setName(e.getClass().getName())
        .setValue(ByteString.copyFromUtf8(String.valueOf(e.getMessage()))).build();
  }
}
