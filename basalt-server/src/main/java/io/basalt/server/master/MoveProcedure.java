package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.catalog.TransactionStore;
import io.basalt.server.control.ControlCodec;
import io.basalt.server.control.CrashPoints;
import io.basalt.server.control.MoveSource;
import io.basalt.server.control.RegionServerControl;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A region move (paper §III.E), driven by the master and recorded in a ZooKeeper transaction before each
 * step:
 * <pre>
 * STARTED     region marked MOVING (still served by the source; the balancer and splits leave it alone).
 *             PRE-CLOSE at the source pins and exports its closed segments; the target pulls them in
 *             parallel streams while the source serves.        Recovery: undo.
 * PREFETCHED  CLOSE at the source (drain, sync; unavailability starts), the target pulls only what changed
 *             and opens the region.                             Recovery: undo (the source still has it all).
 * OPENED      point of no return: meta/RegionMap say the target; the source deletes its copy and answers
 *             RegionMovedException.                             Recovery: finish.
 * </pre>
 * Undo = the target drops what it pulled (closing the region if it opened it: no client was ever sent
 * there), the source serves again. Record: ControlCodec fields
 * {@code "move" | step | region | source | target}.
 */
final class MoveProcedure {
  private static final Logger LOG = LoggerFactory.getLogger(MoveProcedure.class);

  enum Step { STARTED, PREFETCHED, OPENED }

  record Txn(Step step, RegionInfo region, ServerName source, ServerName target) {
    String id() {
      return "move-" + region.getEncodedName();
    }

    Txn at(Step s) {
      return new Txn(s, region, source, target);
    }

    byte[] encode() {
      return new ControlCodec.Writer().string("move").string(step.name()).region(region).server(source)
          .server(target).toBytes();
    }

    static Txn decode(byte[] data) throws IOException {
      ControlCodec.Reader r = new ControlCodec.Reader(data);
      if (!"move".equals(r.string())) {
        throw new IOException("not a move transaction");
      }
      return new Txn(Step.valueOf(r.string()), r.region(), r.server(), r.server());
    }
  }

  private final Catalog catalog;
  private final ServerManager servers;
  private final TransactionStore transactions;
  private final OperationHistory history;

  MoveProcedure(Catalog catalog, ServerManager servers, TransactionStore transactions, OperationHistory history) {
    this.catalog = catalog;
    this.servers = servers;
    this.transactions = transactions;
    this.history = history;
  }

  void run(Txn txn, TableDescriptor table) throws IOException {
    long started = System.currentTimeMillis();
    Map<String, Long> phases = new LinkedHashMap<>();
    RegionServerControl source = servers.control(txn.source());
    RegionServerControl target = servers.control(txn.target());
    transactions.put(txn.id(), txn.encode());
    catalog.putRegion(new RegionRecord(txn.region(), txn.source(), RegionRecord.MOVING));
    CrashPoints.reached("master.move.started");
    long prefetched;
    long caughtUp;
    long unavailableFrom;
    try {
      long t = System.nanoTime();
      MoveSource exported = source.preClose(txn.region());
      prefetched = target.prefetch(txn.region(), exported);
      phases.put("prefetch", (System.nanoTime() - t) / 1_000_000);
      transactions.put(txn.id(), txn.at(Step.PREFETCHED).encode());
      CrashPoints.reached("master.move.prefetched");
      unavailableFrom = System.nanoTime();
      MoveSource closed = source.closeForMove(txn.region());
      phases.put("close", (System.nanoTime() - unavailableFrom) / 1_000_000);
      t = System.nanoTime();
      caughtUp = target.openMoved(txn.region(), table, closed);
      phases.put("catchUpAndOpen", (System.nanoTime() - t) / 1_000_000);
    } catch (IOException e) {
      LOG.warn("move of {} from {} to {} failed before its point of no return ({}); undoing it",
          txn.region().getRegionNameAsString(), txn.source(), txn.target(), e.toString());
      rollBack(txn, table);
      throw e;
    }
    transactions.put(txn.id(), txn.at(Step.OPENED).encode());
    CrashPoints.reached("master.move.opened");
    long t = System.nanoTime();
    publish(txn);
    long published = System.nanoTime();
    phases.put("publish", (published - t) / 1_000_000);
    // Clients wait only until meta names the target; the source's clean-up is not part of the window.
    long unavailable = (published - unavailableFrom) / 1_000_000;
    cleanUp(txn);
    phases.put("cleanUp", (System.nanoTime() - published) / 1_000_000);
    history.add(new OperationHistory.Operation("move", txn.region().getRegionNameAsString(), txn.source().toString(),
        txn.target().toString(), started, phases, unavailable, prefetched + caughtUp, "MOVED"));
    LOG.info("moved {} from {} to {}: {} ms unavailable ({}), {} bytes shipped ({} after the close)",
        txn.region().getRegionNameAsString(), txn.source(), txn.target(), unavailable, phases, prefetched + caughtUp,
        caughtUp);
  }

  /** From OPENED: publish the target, then let the source delete its copy. */
  private void finish(Txn txn) throws IOException {
    publish(txn);
    cleanUp(txn);
  }

  private void publish(Txn txn) throws IOException {
    catalog.putRegion(new RegionRecord(txn.region(), txn.target(), RegionRecord.OPEN));
    CrashPoints.reached("master.move.published");
  }

  private void cleanUp(Txn txn) throws IOException {
    ServerName source = servers.liveAt(txn.source()).orElse(null);
    if (source != null) {
      servers.control(source).finishMoveAway(txn.region(), txn.target());
      transactions.remove(txn.id());
    }
    // else: the source is down; its stale copy is deleted when it returns (the transaction stays until then).
  }

  private void rollBack(Txn txn, TableDescriptor table) throws IOException {
    ServerName target = servers.liveAt(txn.target()).orElse(null);
    ServerName source = servers.liveAt(txn.source()).orElse(null);
    if (target != null) {
      servers.control(target).abortMoveIn(txn.region());
    }
    if (source == null) {
      throw new IOException("cannot undo the move of " + txn.region().getRegionNameAsString() + " yet: "
          + txn.source() + " is down");
    }
    servers.control(source).abortMoveAway(txn.region(), table);
    catalog.putRegion(new RegionRecord(txn.region(), source, RegionRecord.OPEN));
    if (target == null) {
      // The target's staging copy is removed when it returns: keep the record until then.
      transactions.put(txn.id(), txn.encode());
      return;
    }
    transactions.remove(txn.id());
  }

  /** Finishes or undoes a recorded move after a crash, as far as the live servers allow. */
  void recover(Txn txn, TableDescriptor table) throws IOException {
    if (txn.step() == Step.OPENED) {
      LOG.info("finishing the move of {} to {}", txn.region().getRegionNameAsString(), txn.target());
      finish(txn);
    } else {
      LOG.info("undoing the unfinished move of {} to {}", txn.region().getRegionNameAsString(), txn.target());
      rollBack(txn, table);
    }
  }
}
