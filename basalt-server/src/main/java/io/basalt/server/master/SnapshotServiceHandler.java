package io.basalt.server.master;

import io.basalt.server.catalog.SnapshotRecord;
import io.basalt.server.rpc.CallController;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.*;
import org.apache.hadoop.hbase.shaded.protobuf.generated.SnapshotProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * HBase's snapshot calls of MasterService (field facts from HBase's Master.proto and MasterRpcServices) on {@link
 * Snapshots}, beside {@link MasterServiceHandler}. A snapshot is complete when its call returns, so the client's
 * poll of IsSnapshotDone answers at once; a clone or restore is a procedure whose result is ready when the call
 * returns. Export and import ride on ExecProcedureWithRet under the signature {@link #SIGNATURE}, so the command
 * line is an ordinary HBase client.
 */
public final class SnapshotServiceHandler {
  /** ExecProcedureWithRet's signature for {@code basalt snapshot export|import}; the instance names which. */
  public static final String SIGNATURE = "basalt-snapshot";
  /** HBase's snapshot layout version (SnapshotDescriptionUtils.SNAPSHOT_LAYOUT_VERSION). */
  private static final int LAYOUT_VERSION = 2;
  /** How long the client polls IsSnapshotDone before giving up; the snapshot is done when the call returns. */
  private static final long EXPECTED_TIMEOUT_MILLIS = 60_000;

  private final Snapshots snapshots;
  private final MasterServiceHandler procedures;
  private final boolean recordOwners;

  SnapshotServiceHandler(Snapshots snapshots, MasterServiceHandler procedures) {
    this(snapshots, procedures, false);
  }

  /** {@code recordOwners}: authorisation is on, so a snapshot's taker owns it (as HBase records it only then). */
  SnapshotServiceHandler(Snapshots snapshots, MasterServiceHandler procedures, boolean recordOwners) {
    this.snapshots = snapshots;
    this.procedures = procedures;
    this.recordOwners = recordOwners;
  }

  public SnapshotResponse snapshot(CallController c, SnapshotRequest r) throws IOException {
    SnapshotProtos.SnapshotDescription d = r.getSnapshot();
    if (d.hasTtl() && d.getTtl() > 0) {
      throw new DoNotRetryIOException("snapshot TTL (" + d.getTtl() + " s) is not supported by Basalt: snapshots stay"
          + " until deleted");
    }
    if (!d.hasTable() || d.getTable().isEmpty()) {
      throw new DoNotRetryIOException("a snapshot needs a table");
    }
    snapshots.take(d.getName(), TableName.valueOf(d.getTable()), recordOwners ? c.caller().shortUser() : "");
    return SnapshotResponse.newBuilder().setExpectedTimeout(EXPECTED_TIMEOUT_MILLIS).build();
  }

  public IsSnapshotDoneResponse isSnapshotDone(CallController c, IsSnapshotDoneRequest r) throws IOException {
    IsSnapshotDoneResponse.Builder b = IsSnapshotDoneResponse.newBuilder();
    if (!r.hasSnapshot()) {
      return b.setDone(false).build();
    }
    boolean done = snapshots.isDone(r.getSnapshot().getName());
    b.setDone(done);
    if (done) {
      snapshots.list().stream().filter(s -> s.name().equals(r.getSnapshot().getName())).findFirst()
          .ifPresent(s -> b.setSnapshot(describe(s)));
    }
    return b.build();
  }

  public GetCompletedSnapshotsResponse getCompletedSnapshots(CallController c, GetCompletedSnapshotsRequest r) {
    GetCompletedSnapshotsResponse.Builder b = GetCompletedSnapshotsResponse.newBuilder();
    snapshots.list().forEach(s -> b.addSnapshots(describe(s)));
    return b.build();
  }

  public DeleteSnapshotResponse deleteSnapshot(CallController c, DeleteSnapshotRequest r) throws IOException {
    snapshots.delete(r.getSnapshot().getName());
    return DeleteSnapshotResponse.getDefaultInstance();
  }

  /** Clone (a table that does not exist) or restore (the snapshot's own, disabled, table), as HBase's master decides. */
  public RestoreSnapshotResponse restoreSnapshot(CallController c, RestoreSnapshotRequest r) throws IOException {
    SnapshotProtos.SnapshotDescription d = r.getSnapshot();
    if (r.getRestoreACL()) {
      throw new DoNotRetryIOException("restoring a snapshot's ACLs is not supported by Basalt (it keeps none)");
    }
    long id = procedures.procedure(r.getNonceGroup(), r.getNonce(),
        () -> snapshots.restoreOrClone(d.getName(), TableName.valueOf(d.getTable())));
    return RestoreSnapshotResponse.newBuilder().setProcId(id).build();
  }

  /** {@code basalt snapshot export} (instance "export": snapshot, dir) and {@code import} (instance "import": dir). */
  public ExecProcedureResponse execProcedureWithRet(CallController c, ExecProcedureRequest r) throws IOException {
    HBaseProtos.ProcedureDescription p = r.getProcedure();
    if (!SIGNATURE.equals(p.getSignature())) {
      throw new DoNotRetryIOException("procedure " + p.getSignature() + " is not supported by Basalt");
    }
    Map<String, String> args = new HashMap<>();
    p.getConfigurationList().forEach(kv -> args.put(kv.getName(), kv.getValue()));
    String result = switch (p.getInstance()) {
      case "export" -> Long.toString(snapshots.export(required(args, "snapshot"), required(args, "dir")));
      case "import" -> snapshots.importFrom(required(args, "dir")).name();
      default -> throw new DoNotRetryIOException("unknown snapshot procedure " + p.getInstance()
          + " (export or import)");
    };
    return ExecProcedureResponse.newBuilder().setReturnData(ByteString.copyFromUtf8(result)).build();
  }

  private static String required(Map<String, String> args, String key) throws DoNotRetryIOException {
    String v = args.get(key);
    if (v == null || v.isEmpty()) {
      throw new DoNotRetryIOException("snapshot procedure argument " + key + " is missing");
    }
    return v;
  }

  static SnapshotProtos.SnapshotDescription describe(SnapshotRecord s) {
    SnapshotProtos.SnapshotDescription.Builder b = SnapshotProtos.SnapshotDescription.newBuilder().setName(s.name())
        .setTable(s.table().getTableName().getNameAsString()).setCreationTime(s.creationTime())
        .setType(SnapshotProtos.SnapshotDescription.Type.FLUSH).setVersion(LAYOUT_VERSION);
    return (s.owner().isEmpty() ? b : b.setOwner(s.owner())).build();
  }
}
