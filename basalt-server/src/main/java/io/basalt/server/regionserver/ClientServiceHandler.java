package io.basalt.server.regionserver;

import io.basalt.server.convert.Cells;
import io.basalt.server.convert.Mutations;
import io.basalt.server.convert.Reads;
import io.basalt.server.convert.ScanSizes;
import io.basalt.server.rpc.CallController;
import io.basalt.server.rpc.ServerErrors;
import io.basalt.storage.mutation.CompareOp;
import io.basalt.storage.mutation.RowCondition;
import io.basalt.storage.mutation.RowOperation;
import io.basalt.storage.mutation.RowOutcome;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.region.Region;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellScanner;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.UnknownScannerException;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.exceptions.OutOfOrderScannerNextException;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Action;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionAction;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionActionResult;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ResultOrException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * HBase's ClientService on the regions of a {@link RegionServer}: Get, Mutate, Multi and Scan. Results go
 * back as cell blocks when the connection has a codec, as plain protobuf otherwise.
 */
public final class ClientServiceHandler {
  private final RegionServer server;

  public ClientServiceHandler(RegionServer server) {
    this.server = server;
  }

  private static boolean isMeta(byte[] regionName) {
    return java.util.Arrays.equals(regionName, RegionInfoBuilder.FIRST_META_REGIONINFO.getRegionName());
  }

  // ------------------------------------------------------------------ Get

  public GetResponse get(CallController c, GetRequest request) throws IOException {
    byte[] regionName = request.getRegion().getValue().toByteArray();
    SecurityAttributes.check(request.getGet());
    Get get = ProtobufUtil.toGet(request.getGet());
    Result result;
    if (isMeta(regionName)) {
      result = server.meta().get(get);
    } else {
      RegionLookup.Read read = server.lookup().read(regionName);
      result = get(read.region(), get, read.stale());
    }
    GetResponse.Builder response = GetResponse.newBuilder();
    if (get.isCheckExistenceOnly()) {
      return response.setResult(ClientProtos.Result.newBuilder().setExists(!result.isEmpty())
          .setStale(result.isStale())).build();
    }
    return response.setResult(encode(c, result)).build();
  }

  /** {@code stale}: read from a secondary copy, which may be behind the primary (HBase's TIMELINE reads). */
  private static Result get(HostedRegion region, Get get, boolean stale) throws IOException {
    try {
      return Result.create(Cells.forResponse(region.store().get(get.getRow(), Reads.options(get))), null, stale);
    } catch (RuntimeException e) {
      throw ServerErrors.toIOException(e);
    }
  }

  /** A result as protobuf, its cells in the response cell block when the connection allows it. */
  private static ClientProtos.Result encode(CallController c, Result r) {
    if (c.cellBlocks()) {
      if (r.rawCells() != null) {
        c.addResponseCells(r.rawCells());
      }
      return ProtobufUtil.toResultNoData(r);
    }
    return ProtobufUtil.toResult(r);
  }

  // ------------------------------------------------------------------ Mutate

  public MutateResponse mutate(CallController c, MutateRequest request) throws IOException {
    byte[] regionName = request.getRegion().getValue().toByteArray();
    if (isMeta(regionName)) {
      throw new DoNotRetryIOException("hbase:meta is read-only in Basalt: the master owns the catalog");
    }
    MutationProto proto = request.getMutation();
    SecurityAttributes.check(proto);
    HostedRegion region = server.lookup().writable(regionName);
    CellScanner cells = c.requestCellScanner();
    long nonceGroup = request.hasNonceGroup() ? request.getNonceGroup() : 0;
    try {
      if (request.hasCondition()) {
        CheckAndMutate cam = ProtobufUtil.toCheckAndMutate(request.getCondition(), proto, cells);
        RowOutcome outcome = checkAndMutate(region, cam);
        MutateResponse.Builder response = MutateResponse.newBuilder().setProcessed(outcome.applied());
        if (!outcome.results().isEmpty()) {
          response.setResult(encode(c, Result.create(Cells.toHBase(outcome.results()))));
        }
        return response.build();
      }
      Result result = switch (proto.getMutateType()) {
        case PUT -> mutate(region, ProtobufUtil.toPut(proto, cells));
        case DELETE -> mutate(region, ProtobufUtil.toDelete(proto, cells));
        case INCREMENT -> increment(region, ProtobufUtil.toIncrement(proto, cells), nonceGroup, proto.getNonce());
        case APPEND -> append(region, ProtobufUtil.toAppend(proto, cells), nonceGroup, proto.getNonce());
      };
      MutateResponse.Builder response = MutateResponse.newBuilder().setProcessed(true);
      if (result != null) {
        response.setResult(encode(c, result));
      }
      return response.build();
    } catch (RuntimeException e) {
      throw ServerErrors.toIOException(e);
    }
  }

  private static Result mutate(HostedRegion region, Mutation m) throws IOException {
    region.store().mutate(Mutations.rowMutation(m, region.table()), Mutations.durability(m, region.table()));
    return null;
  }

  private Result increment(HostedRegion region, org.apache.hadoop.hbase.client.Increment inc, long group, long nonce)
      throws IOException {
    return server.nonces().once(group, nonce, () -> Result.create(Cells.toHBase(
        region.store().increment(Mutations.increment(inc), Mutations.durability(inc, region.table())))));
  }

  private Result append(HostedRegion region, org.apache.hadoop.hbase.client.Append app, long group, long nonce)
      throws IOException {
    return server.nonces().once(group, nonce, () -> Result.create(Cells.toHBase(
        region.store().append(Mutations.append(app), Mutations.durability(app, region.table())))));
  }

  private static RowOutcome checkAndMutate(HostedRegion region, CheckAndMutate cam) throws IOException {
    org.apache.hadoop.hbase.io.TimeRange tr = cam.getTimeRange();
    TimeRange timeRange = new TimeRange(tr.getMin(), tr.getMax());
    RowCondition condition = cam.hasFilter()
        ? filterCondition(cam.getFilter(), timeRange)
        : RowCondition.column(cam.getFamily(), cam.getQualifier(), CompareOp.valueOf(cam.getCompareOp().name()),
            cam.getValue(), timeRange);
    List<Mutation> mutations = cam.getAction() instanceof RowMutations rm ? rm.getMutations()
        : List.of((Mutation) cam.getAction());
    return applyAtomically(region, cam.getRow(), condition, mutations);
  }

  /** Puts, deletes, increments and appends of one row as one atomic storage update. */
  private static RowOutcome applyAtomically(HostedRegion region, byte[] row, RowCondition condition,
      List<Mutation> mutations) throws IOException {
    List<RowOperation> ops = new ArrayList<>();
    io.basalt.storage.mutation.Durability durability = io.basalt.storage.mutation.Durability.SYNC_WAL;
    for (Mutation m : mutations) {
      if (m instanceof org.apache.hadoop.hbase.client.Increment inc) {
        ops.add(Mutations.increment(inc));
      } else if (m instanceof org.apache.hadoop.hbase.client.Append app) {
        ops.add(Mutations.append(app));
      } else {
        ops.add(Mutations.rowMutation(m, region.table()));
      }
      durability = Mutations.durability(m, region.table());
    }
    try {
      return region.store().mutateRow(row, condition, ops, durability);
    } catch (RuntimeException e) {
      throw ServerErrors.toIOException(e);
    }
  }

  /** HBase's filter condition: it holds when a Get of the row through the filter returns any cell. */
  private static RowCondition filterCondition(org.apache.hadoop.hbase.filter.Filter filter, TimeRange timeRange) {
    io.basalt.storage.read.ReadOptions read = io.basalt.storage.read.ReadOptions.DEFAULT
        .withTimeRange(timeRange).withFilter(new io.basalt.server.convert.FilterAdapter(filter));
    return new RowCondition() {
      @Override
      public io.basalt.storage.read.ReadOptions read() {
        return read;
      }

      @Override
      public boolean test(List<io.basalt.storage.cell.Cell> cells) {
        return !cells.isEmpty();
      }
    };
  }

  // ------------------------------------------------------------------ Multi

  /**
   * Region actions are read in order (their cells follow one another in the request's cell block), and each one's
   * Puts and Deletes collected last are applied afterwards, the regions' batches in parallel when every action
   * names another region: no action can then see another's rows, as none shares a region.
   */
  public MultiResponse multi(CallController c, MultiRequest request) throws IOException {
    CellScanner cells = c.requestCellScanner();
    long nonceGroup = request.hasNonceGroup() ? request.getNonceGroup() : 0;
    MultiResponse.Builder response = MultiResponse.newBuilder();
    List<RegionAction> actions = request.getRegionActionList();
    boolean deferWrites = actions.size() > 1 && distinctRegions(actions);
    RegionActionResult[] results = new RegionActionResult[actions.size()];
    List<Runnable> writes = new ArrayList<>();
    for (int i = 0; i < actions.size(); i++) {
      int at = i;
      Supplier<RegionActionResult> outcome = regionAction(c, actions.get(i), cells, nonceGroup, response);
      if (deferWrites) {
        writes.add(() -> results[at] = outcome.get());
      } else {
        results[at] = outcome.get();
      }
    }
    SharedWork.runAll(writes.toArray(new Runnable[0]));
    for (RegionActionResult r : results) {
      response.addRegionActionResult(r);
    }
    return response.build();
  }

  private static boolean distinctRegions(List<RegionAction> actions) {
    Set<ByteString> seen = new HashSet<>();
    for (RegionAction a : actions) {
      if (!seen.add(a.getRegion().getValue())) {
        return false;
      }
    }
    return true;
  }

  /** Runs what of {@code action} must run in order; the result's supplier applies its last collected writes. */
  private Supplier<RegionActionResult> regionAction(CallController c, RegionAction action, CellScanner cells,
      long nonceGroup, MultiResponse.Builder response) throws IOException {
    RegionActionResult.Builder result = RegionActionResult.newBuilder();
    HostedRegion region;
    boolean stale = false;
    try {
      byte[] regionName = action.getRegion().getValue().toByteArray();
      if (action.getActionList().stream().allMatch(Action::hasGet)) {
        RegionLookup.Read read = server.lookup().read(regionName); // Gets alone may be TIMELINE reads of a replica
        region = read.region();
        stale = read.stale();
      } else {
        region = server.lookup().writable(regionName);
      }
    } catch (IOException e) {
      skipCells(action, cells);
      return done(result.setException(exception(e)).build());
    }
    if (action.getAtomic() || action.hasCondition()) {
      try {
        for (Action a : action.getActionList()) {
          if (a.hasMutation()) {
            try {
              SecurityAttributes.check(a.getMutation());
            } catch (DoNotRetryIOException refused) {
              skipCells(action, cells); // the later region actions' cells follow this one's
              throw refused;
            }
          }
        }
        RowOutcome outcome = atomic(region, action, cells);
        if (action.hasCondition()) {
          response.setProcessed(outcome.applied());
        }
        for (int i = 0; i < action.getActionCount(); i++) {
          ClientProtos.Result r = i == 0 && !outcome.results().isEmpty()
              ? encode(c, Result.create(Cells.toHBase(outcome.results())))
              : ClientProtos.Result.getDefaultInstance();
          result.addResultOrException(ResultOrException.newBuilder().setIndex(indexOf(action, i)).setResult(r));
        }
        // The client reads an atomic action's outcome from "processed", conditional or not.
        result.setProcessed(outcome.applied());
      } catch (IOException | RuntimeException e) {
        result.setException(exception(ServerErrors.toIOException(e)));
      }
      return done(result.build());
    }
    ResultOrException[] outcomes = new ResultOrException[action.getActionCount()];
    PendingWrites pending = new PendingWrites(region);
    for (int i = 0; i < action.getActionCount(); i++) {
      Action a = action.getAction(i);
      ResultOrException.Builder roe = ResultOrException.newBuilder().setIndex(indexOf(action, i));
      try {
        Result r;
        if (a.hasGet()) {
          // As HBase: a Get runs at once, without waiting for the Puts and Deletes collected before it.
          SecurityAttributes.check(a.getGet());
          Get get = ProtobufUtil.toGet(a.getGet());
          r = get(region, get, stale);
          if (get.isCheckExistenceOnly()) {
            outcomes[i] = roe.setResult(ClientProtos.Result.newBuilder().setExists(!r.isEmpty())
                .setStale(r.isStale())).build();
            continue;
          }
        } else {
          MutationProto proto = a.getMutation();
          try {
            SecurityAttributes.check(proto);
          } catch (DoNotRetryIOException refused) {
            for (int c2 = 0; c2 < proto.getAssociatedCellCount(); c2++) {
              cells.advance(); // the next actions' cells follow this one's
            }
            throw refused;
          }
          if (proto.getMutateType() == MutationProto.MutationType.PUT
              || proto.getMutateType() == MutationProto.MutationType.DELETE) {
            Mutation m = proto.getMutateType() == MutationProto.MutationType.PUT
                ? ProtobufUtil.toPut(proto, cells) : ProtobufUtil.toDelete(proto, cells);
            pending.add(i, roe, m);
            continue;
          }
          // As HBase: Puts and Deletes collected so far are applied before an Increment or Append.
          pending.apply(outcomes);
          r = switch (proto.getMutateType()) {
            case INCREMENT -> increment(region, ProtobufUtil.toIncrement(proto, cells), nonceGroup, proto.getNonce());
            case APPEND -> append(region, ProtobufUtil.toAppend(proto, cells), nonceGroup, proto.getNonce());
            default -> throw new DoNotRetryIOException("unexpected mutation type " + proto.getMutateType());
          };
        }
        roe.setResult(r == null ? ClientProtos.Result.getDefaultInstance() : encode(c, r));
      } catch (IOException | RuntimeException e) {
        roe.setException(exception(ServerErrors.toIOException(e)));
      }
      outcomes[i] = roe.build();
    }
    return () -> {
      pending.apply(outcomes);
      for (ResultOrException roe : outcomes) {
        result.addResultOrException(roe);
      }
      return result.build();
    };
  }

  private static Supplier<RegionActionResult> done(RegionActionResult result) {
    return () -> result;
  }

  /**
   * The Puts and Deletes of a region action, applied together as one storage batch (shared log writes and
   * commits, as HBase appends a batch to its WAL once), each still its own atomic row update that succeeds or
   * fails alone. The batch is as durable as its most durable mutation asks, as in HBase.
   */
  private static final class PendingWrites {
    private final HostedRegion region;
    private final List<io.basalt.storage.mutation.RowMutation> mutations = new ArrayList<>();
    private final List<Integer> positions = new ArrayList<>();
    private final List<ResultOrException.Builder> outcomes = new ArrayList<>();
    private io.basalt.storage.mutation.Durability durability = io.basalt.storage.mutation.Durability.SKIP_WAL;

    PendingWrites(HostedRegion region) {
      this.region = region;
    }

    /** Converts {@code m} now (a bad one fails alone, at once); it is applied by the next {@link #apply}. */
    void add(int position, ResultOrException.Builder outcome, Mutation m) throws IOException {
      io.basalt.storage.mutation.RowMutation converted = Mutations.rowMutation(m, region.table());
      io.basalt.storage.mutation.Durability d = Mutations.durability(m, region.table());
      if (d.compareTo(durability) > 0) {
        durability = d;
      }
      mutations.add(converted);
      positions.add(position);
      outcomes.add(outcome);
    }

    /** Applies what was collected, filling each one's outcome at its position. */
    void apply(ResultOrException[] out) {
      if (mutations.isEmpty()) {
        return;
      }
      try {
        io.basalt.storage.mutation.BatchResult applied = region.store().mutateBatch(mutations, durability);
        for (int j = 0; j < mutations.size(); j++) {
          ResultOrException.Builder roe = outcomes.get(j);
          if (applied.applied(j)) {
            roe.setResult(ClientProtos.Result.getDefaultInstance());
          } else {
            roe.setException(exception(ServerErrors.toIOException(applied.failure(j))));
          }
          out[positions.get(j)] = roe.build();
        }
      } catch (RuntimeException e) {
        // The whole batch failed before any mutation was tried (the region closed, say).
        NameBytesPair error = exception(ServerErrors.toIOException(e));
        for (int j = 0; j < mutations.size(); j++) {
          out[positions.get(j)] = outcomes.get(j).setException(error).build();
        }
      }
      mutations.clear();
      positions.clear();
      outcomes.clear();
      durability = io.basalt.storage.mutation.Durability.SKIP_WAL;
    }
  }

  /** Clients number batch actions; atomic ones (RowMutations) come unnumbered and are answered by position. */
  private static int indexOf(RegionAction action, int position) {
    Action a = action.getAction(position);
    return a.hasIndex() ? a.getIndex() : position;
  }

  /** RowMutations (atomic) or a conditional region action, applied as one row update. */
  private static RowOutcome atomic(HostedRegion region, RegionAction action, CellScanner cells) throws IOException {
    List<Mutation> mutations = new ArrayList<>();
    for (Action a : action.getActionList()) {
      MutationProto proto = a.getMutation();
      mutations.add(switch (proto.getMutateType()) {
        case PUT -> ProtobufUtil.toPut(proto, cells);
        case DELETE -> ProtobufUtil.toDelete(proto, cells);
        case INCREMENT -> ProtobufUtil.toIncrement(proto, cells);
        case APPEND -> ProtobufUtil.toAppend(proto, cells);
      });
    }
    if (mutations.isEmpty()) {
      return new RowOutcome(true, List.of());
    }
    if (action.hasCondition()) {
      return checkAndMutate(region, ProtobufUtil.toCheckAndMutate(action.getCondition(), mutations));
    }
    return applyAtomically(region, mutations.get(0).getRow(), null, mutations);
  }

  /** Consumes the cells of a region action that cannot run, so later actions read their own cells. */
  private static void skipCells(RegionAction action, CellScanner cells) throws IOException {
    for (Action a : action.getActionList()) {
      if (a.hasMutation()) {
        for (int i = 0; i < a.getMutation().getAssociatedCellCount(); i++) {
          cells.advance();
        }
      }
    }
  }

  private static NameBytesPair exception(IOException e) {
    return org.apache.hadoop.hbase.shaded.protobuf.ResponseConverter.buildException(e);
  }

  // ------------------------------------------------------------------ Scan

  public ScanResponse scan(CallController c, ScanRequest request) throws IOException {
    ScannerLeases leases = server.leases();
    ScannerLeases.Lease lease;
    if (request.hasScan()) {
      byte[] regionName = request.getRegion().getValue().toByteArray();
      SecurityAttributes.check(request.getScan());
      Scan scan = ProtobufUtil.toScan(request.getScan()); // its limit comes with each call (RowLimit)
      ResultCursor cursor;
      String leaseRegion;
      if (isMeta(regionName)) {
        cursor = new ListCursor(server.meta().scan(scan));
        leaseRegion = org.apache.hadoop.hbase.util.Bytes.toStringBinary(regionName);
      } else {
        RegionLookup.Read read = server.lookup().read(regionName);
        cursor = openStore(read, scan);
        leaseRegion = read.region().info().getRegionNameAsString(); // closing the region ends its scanners
      }
      lease = leases.open(leaseRegion, cursor, ScanSizes.callLimit(scan.getMaxResultSize(), leases.maxResultBytes()));
    } else {
      lease = leases.get(request.getScannerId());
      if (lease == null) {
        if (request.getCloseScanner()) {
          return ScanResponse.newBuilder().build();
        }
        throw new UnknownScannerException("Unknown scanner '" + request.getScannerId()
            + "'. This can happen due to any of the following reasons: a) Scanner id given is wrong, b) Scanner lease"
            + " expired because of long wait between consecutive client checkins, c) Server may be closing down,"
            + " d) RegionServer restart during upgrade.");
      }
      if (request.hasNextCallSeq() && request.getNextCallSeq() != lease.nextCallSeq) {
        leases.close(lease.id);
        throw new OutOfOrderScannerNextException("Expected nextCallSeq: " + lease.nextCallSeq
            + " But the nextCallSeq got from client: " + request.getNextCallSeq() + "; request=" + request.getScannerId());
      }
      if (request.getCloseScanner() && request.getNumberOfRows() == 0) {
        leases.close(lease.id);
        return ScanResponse.newBuilder().setScannerId(lease.id).setMoreResults(false).build();
      }
      if (request.getRenew()) {
        return ScanResponse.newBuilder().setScannerId(lease.id).setTtl((int) leases.leaseMillis())
            .setMoreResults(true).setMoreResultsInRegion(true).build();
      }
    }
    // A cell-block client takes "stale" for every row from the response, so every response of a replica says it.
    ScanResponse.Builder response = ScanResponse.newBuilder().setScannerId(lease.id).setTtl((int) leases.leaseMillis())
        .setMvccReadPoint(0).setStale(lease.cursor.stale());
    int rows = request.getNumberOfRows() > 0 ? request.getNumberOfRows() : 1;
    int limit = request.hasLimitOfRows() ? request.getLimitOfRows() : 0;
    List<RowResult> results;
    boolean limitReached;
    synchronized (lease) {
      // Answer well within the client's RPC timeout and the lease: a selective filter may scan long.
      long budget = Math.min(c.remainingNanos() / 2, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(leases.leaseMillis() / 2));
      boolean heartbeats = request.getClientHandlesHeartbeats();
      // HBase cuts rows by size only for clients that stitch partial results back (every 1.x+ client does).
      boolean cutRows = request.getClientHandlesPartials();
      do {
        results = lease.cursor.next(rows, lease.maxResultSize, cutRows,
            heartbeats ? System.nanoTime() + budget : Long.MAX_VALUE,
            limit > 0 ? limit + 1 : 0); // HBase counts a row that ended "partial" when the next row begins
      } while (results.isEmpty() && !lease.cursor.regionDone() && !heartbeats);
      RowLimit.Cut cut = RowLimit.apply(results, limit, lease.rowOfLastPartial);
      results = cut.results();
      limitReached = cut.reached();
      if (!results.isEmpty()) {
        RowResult last = results.get(results.size() - 1);
        lease.rowOfLastPartial = last.partial() ? last.row() : null;
      }
      if (!request.hasScan()) {
        lease.nextCallSeq++; // the opening call is not counted: the first "next" carries 0
      }
    }
    if (c.cellBlocks()) {
      int cells = 0;
      for (RowResult r : results) {
        cells += r.cells().size();
      }
      c.reserveResponseCells(cells);
      for (RowResult r : results) {
        response.addCellsPerResult(r.cells().size());
        response.addPartialFlagPerResult(r.partial());
        for (io.basalt.storage.cell.Cell cell : r.cells()) {
          c.addResponseCell(Cells.forResponse(cell));
        }
      }
    } else {
      for (RowResult r : results) {
        response.addResults(ProtobufUtil.toResult(
            Result.create(Cells.forResponse(r.cells()), null, lease.cursor.stale(), r.partial())));
      }
    }
    boolean regionDone = lease.cursor.regionDone();
    // As HBase: a call that finds the filter done and returns nothing ends the whole scan, not only this region's
    // part (so whether the next region is scanned depends on where the call boundaries fell, as in HBase).
    boolean complete = limitReached || lease.cursor.scanComplete() || results.isEmpty() && lease.cursor.filterDone();
    response.setMoreResultsInRegion(!regionDone).setMoreResults(!complete);
    // As HBase: an empty answer is a heartbeat only while the scan goes on. The client completes a row left
    // partial by the call before on an empty answer that is not one, which a row limit reached just there needs.
    if (results.isEmpty() && !regionDone && !complete) {
      response.setHeartbeatMessage(true);
    }
    if (regionDone || limitReached || request.getCloseScanner()) {
      leases.close(lease.id);
    }
    return response.build();
  }

  private static ResultCursor openStore(RegionLookup.Read read, Scan scan) throws IOException {
    try {
      Region store = read.region().store();
      io.basalt.storage.read.ScanSpec spec = Reads.spec(scan);
      return new StoreCursor(store.scan(spec), read.stale(), ScanSizes.weigher(spec.read().filter()));
    } catch (RuntimeException e) {
      throw ServerErrors.toIOException(e);
    }
  }
}
