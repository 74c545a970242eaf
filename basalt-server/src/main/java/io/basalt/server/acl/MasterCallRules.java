package io.basalt.server.acl;

import io.basalt.server.rpc.CallGuard.Admitted;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * MasterService calls, checked as HBase's AccessController (MasterObserver hooks) checks them: creating a table
 * needs ADMIN or CREATE on its namespace, changing or dropping one ADMIN or CREATE on it, namespaces and cluster
 * operations global ADMIN; listings keep only what the caller may see. After a table is created its creator owns
 * it (all actions), and a dropped table's or namespace's grants are removed, as HBase does. A method not listed
 * here needs global ADMIN.
 */
final class MasterCallRules {
  private final AccessChecker checker;
  private final PermissionStore store;
  private final Runnable refresh;
  private volatile SnapshotFacts snapshots = SnapshotFacts.NONE;

  MasterCallRules(AccessChecker checker, PermissionStore store, Runnable refresh) {
    this.checker = checker;
    this.store = store;
    this.refresh = refresh;
  }

  void snapshotFacts(SnapshotFacts facts) {
    snapshots = facts;
  }

  private static TableName table(HBaseProtos.TableName t) {
    return ProtobufUtil.toTableName(t);
  }

  /** The table a region specifier names, or null for an encoded name (which does not carry it). */
  private static TableName tableOf(RegionSpecifier r) {
    if (r.getType() != RegionSpecifier.RegionSpecifierType.REGION_NAME) {
      return null;
    }
    try {
      return RegionInfo.getTable(r.getValue().toByteArray());
    } catch (RuntimeException e) {
      return null;
    }
  }

  private void tableAdmin(RequestUser u, String request, TableName t) throws IOException {
    if (t == null) {
      checker.requireGlobal(u, request, Action.ADMIN, ""); // the region's table is unknown here: the wider grant
    } else {
      checker.requireTable(u, request, t, null, null, Action.ADMIN);
    }
  }

  Admitted admit(RequestUser u, String method, Message request) throws IOException {
    switch (method) {
      case "CreateTable" -> {
        TableDescriptor desc = ProtobufUtil.toTableDescriptor(((MasterProtos.CreateTableRequest) request).getTableSchema());
        Map<byte[], List<byte[]>> families = AccessChecker.familyMap();
        desc.getColumnFamilyNames().forEach(f -> families.put(f, List.of()));
        checker.requireNamespace(u, "createTable", desc.getTableName().getNamespaceAsString(),
            AccessChecker.tableParams(desc.getTableName(), families), Action.ADMIN, Action.CREATE);
        String owner = desc.getValue("OWNER") != null ? desc.getValue("OWNER") : u.name();
        return afterDoing(request, r -> {
          store.grant(new UserPermission(owner, Permission.newBuilder(desc.getTableName())
              .withActions(Action.values()).build()), false);
          refresh.run();
        });
      }
      case "DeleteTable" -> {
        TableName t = table(((MasterProtos.DeleteTableRequest) request).getTableName());
        checker.requireTable(u, "deleteTable", t, null, null, Action.ADMIN, Action.CREATE);
        return afterDoing(request, r -> {
          store.removeTable(t);
          refresh.run();
        });
      }
      case "truncateTable" -> adminOrCreate(u, "truncateTable", ((MasterProtos.TruncateTableRequest) request).getTableName());
      case "ModifyTable" -> adminOrCreate(u, "modifyTable", ((MasterProtos.ModifyTableRequest) request).getTableName());
      case "AddColumn" -> adminOrCreate(u, "modifyTable", ((MasterProtos.AddColumnRequest) request).getTableName());
      case "ModifyColumn" -> adminOrCreate(u, "modifyTable", ((MasterProtos.ModifyColumnRequest) request).getTableName());
      case "DeleteColumn" -> adminOrCreate(u, "modifyTable", ((MasterProtos.DeleteColumnRequest) request).getTableName());
      case "EnableTable" -> adminOrCreate(u, "enableTable", ((MasterProtos.EnableTableRequest) request).getTableName());
      case "DisableTable" -> adminOrCreate(u, "disableTable", ((MasterProtos.DisableTableRequest) request).getTableName());
      case "FlushTable" -> adminOrCreate(u, "flushTable", ((MasterProtos.FlushTableRequest) request).getTableName());
      case "SplitRegion" -> tableAdmin(u, "split",
          ProtobufUtil.toRegionInfo(((MasterProtos.SplitTableRegionRequest) request).getRegionInfo()).getTable());
      case "MoveRegion" -> tableAdmin(u, "move", tableOf(((MasterProtos.MoveRegionRequest) request).getRegion()));
      case "AssignRegion" -> tableAdmin(u, "assign", tableOf(((MasterProtos.AssignRegionRequest) request).getRegion()));
      case "UnassignRegion" -> tableAdmin(u, "unassign", tableOf(((MasterProtos.UnassignRegionRequest) request).getRegion()));
      case "OfflineRegion" -> tableAdmin(u, "regionOffline", tableOf(((MasterProtos.OfflineRegionRequest) request).getRegion()));
      case "MergeTableRegions" -> {
        MasterProtos.MergeTableRegionsRequest r = (MasterProtos.MergeTableRegionsRequest) request;
        tableAdmin(u, "mergeRegions", r.getRegionCount() == 0 ? null : tableOf(r.getRegion(0)));
      }
      case "Snapshot" -> {
        org.apache.hadoop.hbase.shaded.protobuf.generated.SnapshotProtos.SnapshotDescription s = ((MasterProtos.SnapshotRequest) request).getSnapshot();
        checker.requireTable(u, "snapshot " + s.getName(), TableName.valueOf(s.getTable()), null, null,
            Action.ADMIN);
      }
      case "RestoreSnapshot" -> SnapshotRules.restoreOrClone(checker, snapshots, u,
          ((MasterProtos.RestoreSnapshotRequest) request).getSnapshot());
      case "DeleteSnapshot" -> SnapshotRules.delete(checker, snapshots, u,
          ((MasterProtos.DeleteSnapshotRequest) request).getSnapshot().getName());
      case "ExecProcedure", "ExecProcedureWithRet" -> {
        HBaseProtos.ProcedureDescription p = ((MasterProtos.ExecProcedureRequest) request).getProcedure();
        if (p.getSignature().equals("flush-table-proc")) {
          adminOrCreate(u, "flushTable", ProtobufUtil.toProtoTableName(TableName.valueOf(p.getInstance())));
        } else {
          checker.requireGlobal(u, "execProcedure " + p.getSignature(), Action.ADMIN, "");
        }
      }
      case "CreateNamespace" -> checker.requireGlobal(u, "createNamespace", Action.ADMIN,
          "namespace=" + ((MasterProtos.CreateNamespaceRequest) request).getNamespaceDescriptor().getName().toStringUtf8());
      case "ModifyNamespace" -> checker.requireGlobal(u, "modifyNamespace", Action.ADMIN,
          "namespace=" + ((MasterProtos.ModifyNamespaceRequest) request).getNamespaceDescriptor().getName().toStringUtf8());
      case "DeleteNamespace" -> {
        String ns = ((MasterProtos.DeleteNamespaceRequest) request).getNamespaceName();
        checker.requireGlobal(u, "deleteNamespace", Action.ADMIN, "namespace=" + ns);
        return afterDoing(request, r -> {
          store.removeNamespace(ns);
          refresh.run();
        });
      }
      case "GetNamespaceDescriptor" -> checker.requireNamespace(u, "getNamespaceDescriptor",
          ((MasterProtos.GetNamespaceDescriptorRequest) request).getNamespaceName(), "", Action.ADMIN);
      case "ListDecommissionedRegionServers" -> checker.requireGlobal(u, "listDecommissionedRegionServers",
          Action.READ, "");
      case "Balance" -> {
        try {
          checker.requireGlobal(u, "balance", Action.ADMIN, "");
        } catch (org.apache.hadoop.hbase.security.AccessDeniedException refused) {
          // HBase 2.6's master catches its coprocessor's refusal of a balance run, logs it and answers "did not
          // run" (HMaster.balance): the caller sees no error, and nothing moves
          Message didNotRun = MasterProtos.BalanceResponse.newBuilder().setBalancerRan(false).build();
          return new Admitted() {
            @Override
            public Message request() {
              return request;
            }

            @Override
            public Message answer() {
              return didNotRun;
            }

            @Override
            public Message complete(Message response) {
              return response;
            }
          };
        }
      }
      case "SetBalancerRunning" -> checker.requireGlobal(u, "balanceSwitch", Action.ADMIN, "");
      case "DecommissionRegionServers" -> checker.requireGlobal(u, "decommissionRegionServers", Action.ADMIN, "");
      case "RecommissionRegionServer" -> checker.requireGlobal(u, "recommissionRegionServers", Action.ADMIN, "");
      case "SetSplitOrMergeEnabled" -> checker.requireGlobal(u, "setSplitOrMergeEnabled", Action.ADMIN, "");
      case "Shutdown" -> checker.requireGlobal(u, "shutdown", Action.ADMIN, "");
      case "StopMaster" -> checker.requireGlobal(u, "stopMaster", Action.ADMIN, "");
      case "AbortProcedure" -> checker.requireGlobal(u, "abortProcedure", Action.ADMIN, "");
      case "GetProcedures" -> checker.requireGlobal(u, "getProcedure", Action.ADMIN, "");
      case "GetLocks" -> checker.requireGlobal(u, "getLocks", Action.ADMIN, "");
      case "GetTableDescriptors" -> {
        MasterProtos.GetTableDescriptorsRequest r = (MasterProtos.GetTableDescriptorsRequest) request;
        boolean named = !r.hasRegex() && r.getTableNamesCount() > 0;
        return after(request, response -> {
          MasterProtos.GetTableDescriptorsResponse in = (MasterProtos.GetTableDescriptorsResponse) response;
          MasterProtos.GetTableDescriptorsResponse.Builder out = in.toBuilder().clearTableSchema();
          for (HBaseProtos.TableSchema s : in.getTableSchemaList()) {
            TableName t = table(s.getTableName());
            if (named) {
              checker.requireTable(u, "getTableDescriptors", t, null, null, Action.ADMIN, Action.CREATE);
              out.addTableSchema(s);
            } else if (sees(u, t)) {
              out.addTableSchema(s);
            }
          }
          return out.build();
        });
      }
      case "ListTableDescriptorsByNamespace" -> {
        return after(request, response -> {
          MasterProtos.ListTableDescriptorsByNamespaceResponse in =
              (MasterProtos.ListTableDescriptorsByNamespaceResponse) response;
          return in.toBuilder().clearTableSchema().addAllTableSchema(in.getTableSchemaList().stream()
              .filter(s -> sees(u, table(s.getTableName()))).toList()).build();
        });
      }
      case "GetTableNames" -> {
        return after(request, response -> {
          MasterProtos.GetTableNamesResponse in = (MasterProtos.GetTableNamesResponse) response;
          return in.toBuilder().clearTableNames().addAllTableNames(in.getTableNamesList().stream()
              .filter(t -> checker.hasAccess(u, table(t), Action.values())).toList()).build();
        });
      }
      case "ListTableNamesByNamespace" -> {
        return after(request, response -> {
          MasterProtos.ListTableNamesByNamespaceResponse in = (MasterProtos.ListTableNamesByNamespaceResponse) response;
          return in.toBuilder().clearTableName().addAllTableName(in.getTableNameList().stream()
              .filter(t -> checker.hasAccess(u, table(t), Action.values())).toList()).build();
        });
      }
      case "ListNamespaceDescriptors" -> {
        return after(request, response -> {
          MasterProtos.ListNamespaceDescriptorsResponse in = (MasterProtos.ListNamespaceDescriptorsResponse) response;
          return in.toBuilder().clearNamespaceDescriptor().addAllNamespaceDescriptor(in.getNamespaceDescriptorList()
              .stream().filter(n -> checker.view().namespace(u, n.getName().toStringUtf8(), Action.ADMIN)).toList()).build();
        });
      }
      case "GetCompletedSnapshots" -> {
        boolean admin = checker.view().global(u, Action.ADMIN);
        return after(request, response -> {
          MasterProtos.GetCompletedSnapshotsResponse in = (MasterProtos.GetCompletedSnapshotsResponse) response;
          return in.toBuilder().clearSnapshots().addAllSnapshots(in.getSnapshotsList().stream()
              .filter(s -> admin || s.getOwner().equals(u.name())).toList()).build();
        });
      }
      case "getSecurityCapabilities" -> {
        return after(request, response -> {
          MasterProtos.SecurityCapabilitiesResponse in = (MasterProtos.SecurityCapabilitiesResponse) response;
          MasterProtos.SecurityCapabilitiesResponse.Capability auth =
              MasterProtos.SecurityCapabilitiesResponse.Capability.AUTHORIZATION;
          return in.getCapabilitiesList().contains(auth) ? in : in.toBuilder().addCapabilities(auth).build();
        });
      }
      case "IsMasterRunning", "IsMasterInMaintenanceMode", "getProcedureResult", "IsProcedureDone",
          "GetSchemaAlterStatus", "GetTableState", "GetClusterStatus", "IsBalancerEnabled", "ListNamespaces",
          "IsSnapshotDone", "IsSplitOrMergeEnabled", "IsNormalizerEnabled", "IsCatalogJanitorEnabled",
          "IsCleanerChoreEnabled", "IsSnapshotCleanupEnabled", "getLastMajorCompactionTimestamp",
          "getLastMajorCompactionTimestampForRegion", "ListTableDescriptorsByState", "ListTableNamesByState",
          // these check their own callers (AclServiceHandler)
          "Grant", "Revoke", "GetUserPermissions", "HasUserPermissions", "ExecMasterService" -> {
        // HBase does not check these
      }
      default -> checker.requireGlobal(u, method, Action.ADMIN, "");
    }
    return Admitted.as(request);
  }

  /** Sees a table's descriptor: ADMIN or CREATE on it (HBase's postGetTableDescriptors). */
  private boolean sees(RequestUser u, TableName t) {
    PermissionView v = checker.view();
    return v.table(u, t, null, null, Action.ADMIN) || v.table(u, t, null, null, Action.CREATE);
  }

  private void adminOrCreate(RequestUser u, String request, HBaseProtos.TableName t) throws IOException {
    checker.requireTable(u, request, table(t), null, null, Action.ADMIN, Action.CREATE);
  }

  private interface OnSuccess {
    Message apply(Message response) throws IOException;
  }

  private interface SideEffect {
    void run(Message response) throws IOException;
  }

  private static Admitted afterDoing(Message request, SideEffect effect) {
    return after(request, response -> {
      effect.run(response);
      return response;
    });
  }

  private static Admitted after(Message request, OnSuccess onSuccess) {
    return new Admitted() {
      @Override
      public Message request() {
        return request;
      }

      @Override
      public Message complete(Message response) throws IOException {
        return onSuccess.apply(response);
      }
    };
  }
}
