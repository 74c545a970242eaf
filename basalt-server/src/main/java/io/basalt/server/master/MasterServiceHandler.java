package io.basalt.server.master;

import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.rpc.CallController;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ClusterMetricsBuilder;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.RegionMetricsBuilder;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerMetricsBuilder;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableState;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.*;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * HBase's MasterService on the {@link Master}. DDL runs to completion inside the call; the client still gets
 * a procedure id, and {@code GetProcedureResult} reports it finished (with its error, if it failed).
 */
public final class MasterServiceHandler {
  private final Master master;
  private final Decommissioning decommissioning;
  private final AtomicLong procedureIds = new AtomicLong();
  private final Map<Long, IOException> procedures = new ConcurrentHashMap<>();
  private static final String FLUSH_TABLE_PROCEDURE = "flush-table-proc";
  /** The last "flush-table-proc" of each table: "no error" or its failure. */
  private final Map<TableName, IOException> tableFlushes = new ConcurrentHashMap<>();

  MasterServiceHandler(Master master, Decommissioning decommissioning) {
    this.master = master;
    this.decommissioning = decommissioning;
  }

  @FunctionalInterface
  interface Procedure {
    void run() throws IOException;
  }

  /** Procedures by client nonce, so a client retrying a call that timed out gets the same procedure. */
  private final Map<String, java.util.concurrent.CompletableFuture<Long>> byNonce =
      java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, java.util.concurrent.CompletableFuture<Long>> eldest) {
          return size() > 10_000;
        }
      });

  /**
   * Like {@link #procedure(Procedure)}, but a repeat of the same (nonce group, nonce) - the client retrying
   * after a timeout - waits for and returns the first call's procedure instead of running it twice (a
   * second createTable would fail with TableExistsException), as HBase's procedure executor does.
   */
  long procedure(long nonceGroup, long nonce, Procedure p) throws IOException {
    if (nonce == 0) {
      return procedure(p);
    }
    String key = nonceGroup + ":" + nonce;
    java.util.concurrent.CompletableFuture<Long> mine = new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.CompletableFuture<Long> first = byNonce.putIfAbsent(key, mine);
    if (first != null) {
      try {
        return first.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for procedure of nonce " + key);
      } catch (java.util.concurrent.ExecutionException e) {
        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
      }
    }
    try {
      long id = procedure(p);
      mine.complete(id);
      return id;
    } catch (IOException | RuntimeException e) {
      mine.completeExceptionally(e);
      throw e;
    }
  }

  /** Runs a DDL step, recording its outcome under a new procedure id; errors also go straight to the caller. */
  private long procedure(Procedure p) throws IOException {
    long id = procedureIds.incrementAndGet();
    try {
      p.run();
      procedures.put(id, new IOException("no error"));
    } catch (IOException e) {
      procedures.put(id, e);
      throw e;
    }
    return id;
  }

  public IsMasterRunningResponse isMasterRunning(CallController c, IsMasterRunningRequest r) {
    return IsMasterRunningResponse.newBuilder().setIsMasterRunning(true).build();
  }

  public IsInMaintenanceModeResponse isMasterInMaintenanceMode(CallController c, IsInMaintenanceModeRequest r) {
    return IsInMaintenanceModeResponse.newBuilder().setInMaintenanceMode(false).build();
  }

  public GetProcedureResultResponse getProcedureResult(CallController c, GetProcedureResultRequest r) {
    IOException outcome = procedures.get(r.getProcId());
    GetProcedureResultResponse.Builder b = GetProcedureResultResponse.newBuilder();
    if (outcome == null) {
      return b.setState(GetProcedureResultResponse.State.NOT_FOUND).build();
    }
    b.setState(GetProcedureResultResponse.State.FINISHED);
    if (!"no error".equals(outcome.getMessage())) {
      b.setException(org.apache.hadoop.hbase.util.ForeignExceptionUtil.toProtoForeignException(outcome));
    }
    return b.build();
  }

  /**
   * The distributed procedures a client may start with {@code Admin.execProcedure}: only HBase's table flush
   * ("flush-table-proc", what older clients' {@code Admin.flush} uses). It runs inside the call; its outcome is
   * kept by table for {@link #isProcedureDone}.
   */
  public ExecProcedureResponse execProcedure(CallController c, ExecProcedureRequest r) throws IOException {
    HBaseProtos.ProcedureDescription desc = r.getProcedure();
    requireFlushProcedure(desc);
    TableName name = TableName.valueOf(desc.getInstance());
    try {
      master.flushTable(name);
      tableFlushes.put(name, new IOException("no error"));
    } catch (IOException e) {
      tableFlushes.put(name, e);
      throw e;
    }
    return ExecProcedureResponse.newBuilder().setExpectedTimeout(60_000).build();
  }

  /** As HBase: a procedure never started is not done, a failed one answers its error. */
  public IsProcedureDoneResponse isProcedureDone(CallController c, IsProcedureDoneRequest r) throws IOException {
    HBaseProtos.ProcedureDescription desc = r.getProcedure();
    requireFlushProcedure(desc);
    IOException outcome = tableFlushes.get(TableName.valueOf(desc.getInstance()));
    if (outcome != null && !"no error".equals(outcome.getMessage())) {
      throw outcome;
    }
    return IsProcedureDoneResponse.newBuilder().setDone(outcome != null).build();
  }

  private static void requireFlushProcedure(HBaseProtos.ProcedureDescription desc) throws IOException {
    if (!FLUSH_TABLE_PROCEDURE.equals(desc.getSignature())) {
      throw new org.apache.hadoop.hbase.DoNotRetryIOException("The procedure is not registered: "
          + desc.getSignature() + " (Basalt runs only " + FLUSH_TABLE_PROCEDURE + ")");
    }
  }

  // ---------------------------------------------------------------- tables

  public CreateTableResponse createTable(CallController c, CreateTableRequest r) throws IOException {
    TableDescriptor desc = ProtobufUtil.toTableDescriptor(r.getTableSchema());
    byte[][] splits = new byte[r.getSplitKeysCount()][];
    for (int i = 0; i < splits.length; i++) {
      splits[i] = r.getSplitKeys(i).toByteArray();
    }
    return CreateTableResponse.newBuilder().setProcId(procedure(r.getNonceGroup(), r.getNonce(), () -> master.createTable(desc, splits))).build();
  }

  public DeleteTableResponse deleteTable(CallController c, DeleteTableRequest r) throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    return DeleteTableResponse.newBuilder().setProcId(procedure(r.getNonceGroup(), r.getNonce(), () -> master.deleteTable(name))).build();
  }

  public DisableTableResponse disableTable(CallController c, DisableTableRequest r) throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    return DisableTableResponse.newBuilder().setProcId(procedure(r.getNonceGroup(), r.getNonce(), () -> master.disableTable(name))).build();
  }

  public EnableTableResponse enableTable(CallController c, EnableTableRequest r) throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    return EnableTableResponse.newBuilder().setProcId(procedure(r.getNonceGroup(), r.getNonce(), () -> master.enableTable(name))).build();
  }

  public TruncateTableResponse truncateTable(CallController c, TruncateTableRequest r) throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    return TruncateTableResponse.newBuilder()
        .setProcId(procedure(r.getNonceGroup(), r.getNonce(), () -> master.truncateTable(name, r.getPreserveSplits()))).build();
  }

  public ModifyTableResponse modifyTable(CallController c, ModifyTableRequest r) throws IOException {
    TableDescriptor desc = ProtobufUtil.toTableDescriptor(r.getTableSchema());
    return ModifyTableResponse.newBuilder().setProcId(procedure(r.getNonceGroup(), r.getNonce(), () -> master.modifyTable(desc))).build();
  }

  public AddColumnResponse addColumn(CallController c, AddColumnRequest r) throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    ColumnFamilyDescriptor cf = ProtobufUtil.toColumnFamilyDescriptor(r.getColumnFamilies());
    return AddColumnResponse.newBuilder().setProcId(procedure(() -> {
      TableDescriptor t = master.table(name);
      if (t.hasColumnFamily(cf.getName())) {
        throw new org.apache.hadoop.hbase.InvalidFamilyOperationException(
            "Column family '" + cf.getNameAsString() + "' in table '" + name + "' already exists so cannot be added");
      }
      master.modifyTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(cf).build());
    })).build();
  }

  public ModifyColumnResponse modifyColumn(CallController c, ModifyColumnRequest r) throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    ColumnFamilyDescriptor cf = ProtobufUtil.toColumnFamilyDescriptor(r.getColumnFamilies());
    return ModifyColumnResponse.newBuilder().setProcId(procedure(() -> {
      TableDescriptor t = master.table(name);
      if (!t.hasColumnFamily(cf.getName())) {
        throw new org.apache.hadoop.hbase.InvalidFamilyOperationException(
            "Family '" + cf.getNameAsString() + "' does not exist, so it cannot be modified");
      }
      master.modifyTable(TableDescriptorBuilder.newBuilder(t).modifyColumnFamily(cf).build());
    })).build();
  }

  public DeleteColumnResponse deleteColumn(CallController c, DeleteColumnRequest r) throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    byte[] family = r.getColumnName().toByteArray();
    return DeleteColumnResponse.newBuilder().setProcId(procedure(() -> {
      TableDescriptor t = master.table(name);
      if (!t.hasColumnFamily(family)) {
        throw new org.apache.hadoop.hbase.InvalidFamilyOperationException(
            "Family '" + org.apache.hadoop.hbase.util.Bytes.toString(family) + "' does not exist, so it cannot be deleted");
      }
      if (t.getColumnFamilyCount() == 1) {
        throw new org.apache.hadoop.hbase.InvalidFamilyOperationException(
            "Family '" + org.apache.hadoop.hbase.util.Bytes.toString(family) + "' is the only column family in the table, so it cannot be deleted");
      }
      master.modifyTable(TableDescriptorBuilder.newBuilder(t).removeColumnFamily(family).build());
    })).build();
  }

  /** Schema changes reach every open region before ModifyTable returns: nothing is ever pending. */
  public GetSchemaAlterStatusResponse getSchemaAlterStatus(CallController c, GetSchemaAlterStatusRequest r)
      throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    master.table(name);
    return GetSchemaAlterStatusResponse.newBuilder().setYetToUpdateRegions(0)
        .setTotalRegions(master.catalog().regions(name).size()).build();
  }

  public GetTableDescriptorsResponse getTableDescriptors(CallController c, GetTableDescriptorsRequest r) {
    GetTableDescriptorsResponse.Builder b = GetTableDescriptorsResponse.newBuilder();
    Pattern regex = r.hasRegex() ? Pattern.compile(r.getRegex()) : null;
    List<TableName> wanted = new ArrayList<>();
    for (HBaseProtos.TableName t : r.getTableNamesList()) {
      wanted.add(ProtobufUtil.toTableName(t));
    }
    for (TableDescriptor t : master.catalog().tables()) {
      if (!wanted.isEmpty() && !wanted.contains(t.getTableName())) {
        continue;
      }
      if (regex != null && !regex.matcher(t.getTableName().getNameAsString()).matches()) {
        continue;
      }
      if (r.hasNamespace() && !t.getTableName().getNamespaceAsString().equals(r.getNamespace())) {
        continue;
      }
      b.addTableSchema(ProtobufUtil.toTableSchema(t));
    }
    return b.build();
  }

  public GetTableNamesResponse getTableNames(CallController c, GetTableNamesRequest r) {
    GetTableNamesResponse.Builder b = GetTableNamesResponse.newBuilder();
    Pattern regex = r.hasRegex() ? Pattern.compile(r.getRegex()) : null;
    for (TableDescriptor t : master.catalog().tables()) {
      TableName n = t.getTableName();
      if (regex != null && !regex.matcher(n.getNameAsString()).matches()) {
        continue;
      }
      if (r.hasNamespace() && !n.getNamespaceAsString().equals(r.getNamespace())) {
        continue;
      }
      b.addTableNames(ProtobufUtil.toProtoTableName(n));
    }
    return b.build();
  }

  public GetTableStateResponse getTableState(CallController c, GetTableStateRequest r) throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    master.table(name);
    TableState state = new TableState(name, master.catalog().state(name).orElse(TableState.State.ENABLED));
    return GetTableStateResponse.newBuilder().setTableState(state.convert()).build();
  }

  public ListTableDescriptorsByNamespaceResponse listTableDescriptorsByNamespace(CallController c,
      ListTableDescriptorsByNamespaceRequest r) throws IOException {
    master.namespaces().get(r.getNamespaceName());
    ListTableDescriptorsByNamespaceResponse.Builder b = ListTableDescriptorsByNamespaceResponse.newBuilder();
    for (TableDescriptor t : master.catalog().tables()) {
      if (t.getTableName().getNamespaceAsString().equals(r.getNamespaceName())) {
        b.addTableSchema(ProtobufUtil.toTableSchema(t));
      }
    }
    return b.build();
  }

  public ListTableNamesByNamespaceResponse listTableNamesByNamespace(CallController c, ListTableNamesByNamespaceRequest r)
      throws IOException {
    master.namespaces().get(r.getNamespaceName());
    ListTableNamesByNamespaceResponse.Builder b = ListTableNamesByNamespaceResponse.newBuilder();
    for (TableDescriptor t : master.catalog().tables()) {
      if (t.getTableName().getNamespaceAsString().equals(r.getNamespaceName())) {
        b.addTableName(ProtobufUtil.toProtoTableName(t.getTableName()));
      }
    }
    return b.build();
  }

  /**
   * Basalt has no memstore: every write is in its region's log already, so a flush forces those logs to disk
   * (fsync) on every server holding a copy. Column families cannot be flushed apart (one log per region).
   */
  public FlushTableResponse flushTable(CallController c, FlushTableRequest r) throws IOException {
    TableName name = ProtobufUtil.toTableName(r.getTableName());
    master.table(name);
    return FlushTableResponse.newBuilder()
        .setProcId(procedure(r.getNonceGroup(), r.getNonce(), () -> master.flushTable(name))).build();
  }

  // ---------------------------------------------------------------- namespaces

  public CreateNamespaceResponse createNamespace(CallController c, CreateNamespaceRequest r) throws IOException {
    NamespaceDescriptor ns = ProtobufUtil.toNamespaceDescriptor(r.getNamespaceDescriptor());
    return CreateNamespaceResponse.newBuilder().setProcId(procedure(() -> master.namespaces().create(ns))).build();
  }

  public ModifyNamespaceResponse modifyNamespace(CallController c, ModifyNamespaceRequest r) throws IOException {
    NamespaceDescriptor ns = ProtobufUtil.toNamespaceDescriptor(r.getNamespaceDescriptor());
    return ModifyNamespaceResponse.newBuilder().setProcId(procedure(() -> master.namespaces().modify(ns))).build();
  }

  public DeleteNamespaceResponse deleteNamespace(CallController c, DeleteNamespaceRequest r) throws IOException {
    return DeleteNamespaceResponse.newBuilder().setProcId(procedure(() -> master.namespaces().delete(r.getNamespaceName())))
        .build();
  }

  public GetNamespaceDescriptorResponse getNamespaceDescriptor(CallController c, GetNamespaceDescriptorRequest r)
      throws IOException {
    return GetNamespaceDescriptorResponse.newBuilder()
        .setNamespaceDescriptor(ProtobufUtil.toProtoNamespaceDescriptor(master.namespaces().get(r.getNamespaceName()))).build();
  }

  public ListNamespaceDescriptorsResponse listNamespaceDescriptors(CallController c, ListNamespaceDescriptorsRequest r) {
    ListNamespaceDescriptorsResponse.Builder b = ListNamespaceDescriptorsResponse.newBuilder();
    for (NamespaceDescriptor ns : master.catalog().namespaces()) {
      b.addNamespaceDescriptor(ProtobufUtil.toProtoNamespaceDescriptor(ns));
    }
    return b.build();
  }

  public ListNamespacesResponse listNamespaces(CallController c, ListNamespacesRequest r) {
    ListNamespacesResponse.Builder b = ListNamespacesResponse.newBuilder();
    for (NamespaceDescriptor ns : master.catalog().namespaces()) {
      b.addNamespaceName(ns.getName());
    }
    return b.build();
  }

  // ---------------------------------------------------------------- split, move, balance

  public SplitTableRegionResponse splitRegion(CallController c, SplitTableRegionRequest r) throws IOException {
    RegionInfo region = ProtobufUtil.toRegionInfo(r.getRegionInfo());
    byte[] row = r.hasSplitRow() ? r.getSplitRow().toByteArray() : null;
    return SplitTableRegionResponse.newBuilder()
        .setProcId(procedure(r.getNonceGroup(), r.getNonce(), () -> master.split(region.getRegionName(), row))).build();
  }

  /**
   * Runs inside the call, as DDL does; refusals (HBase's MergeRegionException and its messages) are thrown from the
   * call itself, as HBase's master checks the regions before it starts the procedure.
   */
  public MergeTableRegionsResponse mergeTableRegions(CallController c, MergeTableRegionsRequest r)
      throws IOException {
    List<byte[]> names = r.getRegionList().stream().map(spec -> spec.getValue().toByteArray()).toList();
    return MergeTableRegionsResponse.newBuilder()
        .setProcId(procedure(r.getNonceGroup(), r.getNonce(), () -> master.merge(names, r.getForcible()))).build();
  }

  public MoveRegionResponse moveRegion(CallController c, MoveRegionRequest r) throws IOException {
    ServerName target = r.hasDestServerName() ? ProtobufUtil.toServerName(r.getDestServerName()) : null;
    master.move(r.getRegion().getValue().toByteArray(), target);
    return MoveRegionResponse.getDefaultInstance();
  }

  public BalanceResponse balance(CallController c, BalanceRequest r) throws IOException {
    if (!master.balancerOn()) {
      return BalanceResponse.newBuilder().setBalancerRan(false).build();
    }
    int planned = master.balancePlan().size() + master.views().memberBalancePlan().size();
    if (r.getDryRun()) {
      return BalanceResponse.newBuilder().setBalancerRan(true).setMovesCalculated(planned).build();
    }
    try {
      int done = master.balance();
      return BalanceResponse.newBuilder().setBalancerRan(true).setMovesCalculated(planned).setMovesExecuted(done).build();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("balance interrupted");
    }
  }

  public SetBalancerRunningResponse setBalancerRunning(CallController c, SetBalancerRunningRequest r) {
    return SetBalancerRunningResponse.newBuilder().setPrevBalanceValue(master.setBalancerOn(r.getOn())).build();
  }

  // ---------------------------------------------------------------- decommission (HBase's "draining" servers)

  public DecommissionRegionServersResponse decommissionRegionServers(CallController c,
      DecommissionRegionServersRequest r) throws IOException {
    decommissioning.decommission(r.getServerNameList().stream().map(ProtobufUtil::toServerName).toList(),
        r.getOffload());
    return DecommissionRegionServersResponse.getDefaultInstance();
  }

  public ListDecommissionedRegionServersResponse listDecommissionedRegionServers(CallController c,
      ListDecommissionedRegionServersRequest r) throws IOException {
    ListDecommissionedRegionServersResponse.Builder b = ListDecommissionedRegionServersResponse.newBuilder();
    decommissioning.list().forEach(s -> b.addServerName(ProtobufUtil.toServerName(s)));
    return b.build();
  }

  public RecommissionRegionServerResponse recommissionRegionServer(CallController c,
      RecommissionRegionServerRequest r) throws IOException {
    if (!r.hasServerName()) {
      throw new org.apache.hadoop.hbase.DoNotRetryIOException("RecommissionRegionServer needs a server name");
    }
    // The client names regions by encoded name; Master.move takes encoded or full names.
    decommissioning.recommission(ProtobufUtil.toServerName(r.getServerName()),
        r.getRegionList().stream().map(spec -> spec.getValue().toByteArray()).toList());
    return RecommissionRegionServerResponse.getDefaultInstance();
  }

  // ---------------------------------------------------------------- cluster

  public GetClusterStatusResponse getClusterStatus(CallController c, GetClusterStatusRequest r) {
    Map<ServerName, List<RegionMetrics>> regions = new TreeMap<>();
    for (ServerName s : master.servers().live()) {
      regions.put(s, new ArrayList<>());
    }
    for (RegionRecord rec : master.catalog().allRegions()) {
      List<RegionMetrics> onServer = rec.server() == null ? null : regions.get(rec.server());
      if (onServer != null && RegionRecord.OPEN.equals(rec.state())) {
        onServer.add(RegionMetricsBuilder.newBuilder(rec.info().getRegionName()).build());
      }
    }
    Map<ServerName, ServerMetrics> live = new TreeMap<>();
    regions.forEach((s, list) -> live.put(s, ServerMetricsBuilder.newBuilder(s).setRegionMetrics(list)
        .setVersion(VersionInfo.getVersion()).build()));
    ClusterMetrics cluster = ClusterMetricsBuilder.newBuilder()
        .setHBaseVersion(VersionInfo.getVersion())
        .setClusterId(master.catalog().clusterId())
        .setMasterName(master.name())
        .setLiveServerMetrics(live)
        .setServerNames(new ArrayList<>(live.keySet()))
        .setBalancerOn(master.balancerOn())
        .setMasterInfoPort(-1)
        .build();
    return GetClusterStatusResponse.newBuilder().setClusterStatus(ClusterMetricsBuilder.toClusterStatus(cluster)).build();
  }

  public IsBalancerEnabledResponse isBalancerEnabled(CallController c, IsBalancerEnabledRequest r) {
    return IsBalancerEnabledResponse.newBuilder().setEnabled(master.balancerOn()).build();
  }

  public SecurityCapabilitiesResponse getSecurityCapabilities(CallController c, SecurityCapabilitiesRequest r) {
    return SecurityCapabilitiesResponse.getDefaultInstance();
  }
}
