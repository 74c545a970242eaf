package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.catalog.TransactionStore;
import io.basalt.server.control.CloneReport;
import io.basalt.server.control.ControlCodec;
import io.basalt.server.control.CrashPoints;
import io.basalt.server.control.RegionServerControl;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A region split (ARCHITECTURE §4), driven by the master and recorded in a ZooKeeper transaction before
 * each step, so a master or region server that dies at any point leaves a record saying whether to undo or
 * finish it:
 * <pre>
 * STARTED    parent marked SPLITTING (clients get NotServingRegion and retry); the server closes the
 *            parent (drain, sync) and clones its log into both daughters (links + tail copy).
 *            Recovery: undo (drop daughter directories, serve the parent again): no daughter has opened.
 * CLONED     point of no return: daughters open (in parallel) on the same server, then meta/RegionMap publish them and
 *            retire the parent (SPLIT, with splitA/splitB). Recovery: finish (every step is idempotent).
 * PUBLISHED  the parent's directory is dropped (the daughters hold their own links). Recovery: finish.
 * </pre>
 * Record: ControlCodec fields {@code "split" | step | parent | server | daughterA | daughterB}.
 */
final class SplitProcedure {
  private static final Logger LOG = LoggerFactory.getLogger(SplitProcedure.class);

  enum Step { STARTED, CLONED, PUBLISHED }

  record Txn(Step step, RegionInfo parent, ServerName server, RegionInfo daughterA, RegionInfo daughterB) {
    String id() {
      return "split-" + parent.getEncodedName();
    }

    Txn at(Step s) {
      return new Txn(s, parent, server, daughterA, daughterB);
    }

    byte[] encode() {
      return new ControlCodec.Writer().string("split").string(step.name()).region(parent).server(server)
          .region(daughterA).region(daughterB).toBytes();
    }

    static Txn decode(byte[] data) throws IOException {
      ControlCodec.Reader r = new ControlCodec.Reader(data);
      if (!"split".equals(r.string())) {
        throw new IOException("not a split transaction");
      }
      return new Txn(Step.valueOf(r.string()), r.region(), r.server(), r.region(), r.region());
    }
  }

  private final Catalog catalog;
  private final ServerManager servers;
  private final TransactionStore transactions;
  private final OperationHistory history;

  SplitProcedure(Catalog catalog, ServerManager servers, TransactionStore transactions, OperationHistory history) {
    this.catalog = catalog;
    this.servers = servers;
    this.transactions = transactions;
    this.history = history;
  }

  /** The daughters of splitting {@code parent} at {@code row}, named with a fresh region id. */
  static Txn plan(RegionInfo parent, ServerName server, byte[] row, long regionId) {
    RegionInfo a = RegionInfoBuilder.newBuilder(parent.getTable()).setStartKey(parent.getStartKey()).setEndKey(row)
        .setRegionId(regionId).build();
    RegionInfo b = RegionInfoBuilder.newBuilder(parent.getTable()).setStartKey(row).setEndKey(parent.getEndKey())
        .setRegionId(regionId).build();
    return new Txn(Step.STARTED, parent, server, a, b);
  }

  /** Runs a planned split to the end; a failure before the clone is recorded undoes it. */
  void run(Txn txn, TableDescriptor table) throws IOException {
    long started = System.currentTimeMillis();
    Map<String, Long> phases = new LinkedHashMap<>();
    RegionServerControl rs = servers.control(txn.server());
    transactions.put(txn.id(), txn.encode());
    catalog.putRegion(new RegionRecord(txn.parent(), txn.server(), RegionRecord.SPLITTING));
    CrashPoints.reached("master.split.started");
    long t0 = System.nanoTime();
    CloneReport clone;
    try {
      clone = rs.closeAndClone(txn.parent(), txn.daughterA(), txn.daughterB());
    } catch (IOException e) {
      LOG.warn("split of {} failed before its point of no return ({}); undoing it",
          txn.parent().getRegionNameAsString(), e.toString());
      rollBack(txn, table);
      throw e;
    }
    phases.put("close", clone.closeMillis());
    phases.put("clone", clone.cloneMillis());
    transactions.put(txn.id(), txn.at(Step.CLONED).encode());
    CrashPoints.reached("master.split.cloned");
    finish(txn.at(Step.CLONED), table, phases);
    long unavailable = (System.nanoTime() - t0) / 1_000_000;
    history.add(new OperationHistory.Operation("split", txn.parent().getRegionNameAsString(),
        txn.server().toString(), txn.server().toString(), started, phases, unavailable, clone.bytesCopied(), "SPLIT"));
    LOG.info("split {} at {} in {} ms unavailable ({}), {} bytes copied", txn.parent().getRegionNameAsString(),
        org.apache.hadoop.hbase.util.Bytes.toStringBinary(txn.daughterB().getStartKey()), unavailable, phases,
        clone.bytesCopied());
  }

  /** From CLONED or PUBLISHED: opens the daughters, publishes them, retires and drops the parent. */
  private void finish(Txn txn, TableDescriptor table, Map<String, Long> phases) throws IOException {
    RegionServerControl rs = servers.control(txn.server());
    if (txn.step() == Step.CLONED) {
      // The daughters open in parallel: the split's unavailability is one open, not two.
      java.util.concurrent.CompletableFuture<Long> openB = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        long t = System.nanoTime();
        try {
          rs.openRegion(txn.daughterB(), table);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        return (System.nanoTime() - t) / 1_000_000;
      });
      long t = System.nanoTime();
      rs.openRegion(txn.daughterA(), table);
      phases.put("openA", (System.nanoTime() - t) / 1_000_000);
      try {
        phases.put("openB", openB.join());
      } catch (java.util.concurrent.CompletionException e) {
        throw e.getCause() instanceof java.io.UncheckedIOException u ? u.getCause()
            : new IOException("opening " + txn.daughterB().getRegionNameAsString() + " failed", e.getCause());
      }
      CrashPoints.reached("master.split.opened");
      t = System.nanoTime();
      RegionInfo retired = RegionInfoBuilder.newBuilder(txn.parent()).setOffline(true).setSplit(true).build();
      catalog.putRegions(java.util.List.of(
          new RegionRecord(retired, txn.server(), RegionRecord.SPLIT, txn.daughterA(), txn.daughterB()),
          new RegionRecord(txn.daughterA(), txn.server(), RegionRecord.OPEN),
          new RegionRecord(txn.daughterB(), txn.server(), RegionRecord.OPEN)));
      phases.put("publish", (System.nanoTime() - t) / 1_000_000);
      transactions.put(txn.id(), txn.at(Step.PUBLISHED).encode());
      CrashPoints.reached("master.split.published");
    }
    rs.dropRegion(txn.parent());
    transactions.remove(txn.id());
  }

  private void rollBack(Txn txn, TableDescriptor table) throws IOException {
    servers.control(txn.server()).rollBackSplit(txn.parent(), table, txn.daughterA(), txn.daughterB());
    catalog.putRegion(new RegionRecord(txn.parent(), txn.server(), RegionRecord.OPEN));
    transactions.remove(txn.id());
  }

  /**
   * Finishes or undoes a recorded split after a crash. Needs its server: while that server is down the
   * transaction waits (its regions are unavailable anyway) and this is tried again when it returns.
   */
  void recover(Txn txn, TableDescriptor table) throws IOException {
    ServerName live = servers.liveAt(txn.server()).orElse(null);
    if (live == null) {
      LOG.info("split of {} waits for {} to return", txn.parent().getRegionNameAsString(), txn.server());
      return;
    }
    Txn here = new Txn(txn.step(), txn.parent(), live, txn.daughterA(), txn.daughterB());
    if (here.step() == Step.STARTED) {
      LOG.info("undoing the unfinished split of {}", txn.parent().getRegionNameAsString());
      rollBack(here, table);
    } else {
      LOG.info("finishing the split of {} from step {}", txn.parent().getRegionNameAsString(), txn.step());
      finish(here, table, new LinkedHashMap<>());
    }
  }
}
