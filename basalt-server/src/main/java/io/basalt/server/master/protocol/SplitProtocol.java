package io.basalt.server.master.protocol;

import io.basalt.server.master.protocol.Outcome.Kind;
import java.util.Optional;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A region split (ARCHITECTURE §4, paper §III.D) as a pure state machine. The actions, in order:
 * <pre>
 *   ChooseMidpoint(server, parent)            only when no split row was given; read only
 *   PersistTxn(STARTED)                       failure: DeleteTxn, ROLLED_BACK
 *   SetRegionState(parent, SPLITTING)         failure: roll back
 *   CloseAndClone(server, parent, A, B)       failure: roll back
 *   PersistTxn(CLONED)                        failure: roll back; done: POINT OF NO RETURN
 *   PublishSplit(parent, A, B, server)        from here on a failure repeats the action
 *   OpenDaughters(server, A, B)               the two opens in parallel
 *   PersistTxn(PUBLISHED)
 *   DropRegionFiles(server, parent)
 *   DeleteTxn                                 SPLIT
 * roll back:
 *   PersistTxn(ROLLING_BACK, reason), SetRegionState(parent, OPEN),
 *   RollBackSplit(server, parent, A, B), DeleteTxn                    ROLLED_BACK
 * </pre>
 * The catalog always names a region before its server opens it (daughters are published before they
 * open, as HBase does; a rolled back parent is OPEN again before it reopens): a server that restarts in
 * between is given the region by ordinary assignment, so it ends up served whichever side of the crash
 * the open falls on.
 *
 * <p>Recovery from the last persisted record ({@link #recover}): STARTED rolls back (the daughters may be
 * cloned, wholly or in part, but none was opened or published: dropping them and reopening the parent
 * loses nothing, since the parent's files are never changed by the clone); ROLLING_BACK finishes rolling
 * back; CLONED and PUBLISHED finish the split (the clone is durable and every step after it repeats
 * safely). A crash between an action and the record after it therefore lands on the record before it,
 * whose recovery works whether or not the action happened.
 *
 * <p>Precondition of {@link #begin}: the parent is OPEN on {@code server} in the catalog, served there,
 * and held by no other transaction.
 */
public final class SplitProtocol extends StepMachine<SplitProtocol.Stage> implements Protocol {
  enum Stage {
    CHOOSE_ROW, RECORD_STARTED, MARK_SPLITTING, CLONE, RECORD_CLONED, PUBLISH, OPEN_DAUGHTERS, RECORD_PUBLISHED,
    DROP_PARENT, RECORD_ROLLBACK, MARK_OPEN, UNDO, DELETE
  }

  private final String id;
  private final RegionInfo parent;
  private final ServerName server;
  private final long daughterRegionId;
  /** The record as last persisted, or about to be; null until the split row is known. */
  private SplitTxn txn;
  /** What the protocol reports once its record is deleted. */
  private Outcome ending;

  private SplitProtocol(String id, RegionInfo parent, ServerName server, long daughterRegionId, Stage first) {
    super(first);
    this.id = id;
    this.parent = parent;
    this.server = server;
    this.daughterRegionId = daughterRegionId;
  }

  /**
   * Starts splitting {@code parent}, served by {@code server}, at {@code splitRow} or, when empty, at the
   * middle row its server picks. The daughters are named with {@code daughterRegionId} (a fresh region id,
   * larger than the parent's, so that meta orders them after it). A split row that is not strictly inside
   * the parent ends it REFUSED at once.
   */
  public static SplitProtocol begin(String id, RegionInfo parent, ServerName server, Optional<byte[]> splitRow,
      long daughterRegionId) {
    if (daughterRegionId <= parent.getRegionId()) {
      throw new IllegalArgumentException("daughter region id " + daughterRegionId + " is not after the parent's "
          + parent.getRegionId());
    }
    SplitProtocol p = new SplitProtocol(id, parent, server, daughterRegionId, Stage.CHOOSE_ROW);
    splitRow.ifPresent(p::startAt);
    return p;
  }

  /** Finishes or undoes a split found in ZooKeeper, as its phase says (see the class comment). */
  public static SplitProtocol recover(SplitTxn txn) {
    Stage first = switch (txn.phase()) {
      case STARTED -> Stage.RECORD_ROLLBACK;
      case ROLLING_BACK -> Stage.MARK_OPEN;
      case CLONED -> Stage.PUBLISH;
      case PUBLISHED -> Stage.OPEN_DAUGHTERS;
    };
    SplitProtocol p = new SplitProtocol(txn.id(), txn.parent(), txn.server(), txn.daughterRegionId(), first);
    p.txn = txn;
    p.ending = switch (txn.phase()) {
      case STARTED -> new Outcome(Kind.ROLLED_BACK, "a new master found the split before its clone was recorded");
      case ROLLING_BACK -> new Outcome(Kind.ROLLED_BACK, txn.reason());
      case CLONED, PUBLISHED -> p.splitOutcome();
    };
    return p;
  }

  @Override
  public String id() {
    return id;
  }

  /** The record as last persisted (or being persisted); empty while the split row is being chosen. */
  public Optional<SplitTxn> txn() {
    return Optional.ofNullable(txn);
  }

  @Override
  public boolean committed() {
    return txn != null && (txn.phase() == SplitTxn.Phase.CLONED || txn.phase() == SplitTxn.Phase.PUBLISHED);
  }

  private void startAt(byte[] row) {
    boolean inside = row.length > 0 && Bytes.compareTo(row, parent.getStartKey()) > 0 && parent.containsRow(row);
    if (!inside) {
      finish(new Outcome(Kind.REFUSED, "split row " + Bytes.toStringBinary(row) + " is not inside "
          + parent.getRegionNameAsString() + " (or is its start key)"));
      return;
    }
    txn = new SplitTxn(id, SplitTxn.Phase.STARTED, parent, server, row, daughterRegionId, "");
    goTo(Stage.RECORD_STARTED);
  }

  private Outcome splitOutcome() {
    return new Outcome(Kind.SPLIT, parent.getRegionNameAsString() + " split at "
        + Bytes.toStringBinary(txn.splitRow()));
  }

  private void rollBack(String reason) {
    ending = new Outcome(Kind.ROLLED_BACK, reason);
    goTo(Stage.RECORD_ROLLBACK);
  }

  @Override
  Action actionFor(Stage stage) {
    return switch (stage) {
      case CHOOSE_ROW -> new Action.ChooseMidpoint(server, parent);
      case RECORD_STARTED -> new Action.PersistTxn(txn);
      case MARK_SPLITTING -> new Action.SetRegionState(parent, server, RegionState.SPLITTING);
      case CLONE -> new Action.CloseAndClone(server, parent, txn.daughterA(), txn.daughterB());
      case RECORD_CLONED -> new Action.PersistTxn(txn.at(SplitTxn.Phase.CLONED));
      case PUBLISH -> new Action.PublishSplit(parent, txn.daughterA(), txn.daughterB(), server);
      case OPEN_DAUGHTERS -> new Action.OpenDaughters(server, txn.daughterA(), txn.daughterB());
      case RECORD_PUBLISHED -> new Action.PersistTxn(txn.at(SplitTxn.Phase.PUBLISHED));
      case DROP_PARENT -> new Action.DropRegionFiles(server, parent);
      case RECORD_ROLLBACK -> new Action.PersistTxn(txn.rollingBack(ending.reason()));
      case UNDO -> new Action.RollBackSplit(server, parent, txn.daughterA(), txn.daughterB());
      case MARK_OPEN -> new Action.SetRegionState(parent, server, RegionState.OPEN);
      case DELETE -> new Action.DeleteTxn(id);
    };
  }

  @Override
  boolean accepts(Stage stage, Result result) {
    if (stage == Stage.CHOOSE_ROW) {
      return result instanceof Result.SplitPoint || result instanceof Result.NoSplitPoint;
    }
    return result instanceof Result.Done;
  }

  @Override
  void onCompleted(Stage stage, Result result) {
    switch (stage) {
      case CHOOSE_ROW -> {
        if (result instanceof Result.SplitPoint point) {
          startAt(point.row());
        } else {
          finish(new Outcome(Kind.REFUSED, parent.getRegionNameAsString() + " has no row to split at: "
              + ((Result.NoSplitPoint) result).reason()));
        }
      }
      case RECORD_STARTED -> goTo(Stage.MARK_SPLITTING);
      case MARK_SPLITTING -> goTo(Stage.CLONE);
      case CLONE -> goTo(Stage.RECORD_CLONED);
      case RECORD_CLONED -> {
        txn = txn.at(SplitTxn.Phase.CLONED);
        ending = splitOutcome();
        goTo(Stage.PUBLISH);
      }
      case PUBLISH -> goTo(Stage.OPEN_DAUGHTERS);
      case OPEN_DAUGHTERS -> goTo(txn.phase() == SplitTxn.Phase.PUBLISHED ? Stage.DROP_PARENT : Stage.RECORD_PUBLISHED);
      case RECORD_PUBLISHED -> {
        txn = txn.at(SplitTxn.Phase.PUBLISHED);
        goTo(Stage.DROP_PARENT);
      }
      case DROP_PARENT, UNDO -> goTo(Stage.DELETE);
      case RECORD_ROLLBACK -> {
        txn = txn.rollingBack(ending.reason());
        goTo(Stage.MARK_OPEN);
      }
      case MARK_OPEN -> goTo(Stage.UNDO);
      case DELETE -> finish(ending);
    }
  }

  @Override
  void onFailed(Stage stage, String reason) {
    switch (stage) {
      // Nothing changed yet: there is nothing to undo.
      case CHOOSE_ROW -> finish(new Outcome(Kind.ROLLED_BACK, reason));
      // The record may or may not exist: make sure it does not.
      case RECORD_STARTED -> {
        ending = new Outcome(Kind.ROLLED_BACK, reason);
        goTo(Stage.DELETE);
      }
      // Before the point of no return (a failed CLONED record may have been written: the rollback record
      // overwrites it before anything is undone).
      case MARK_SPLITTING, CLONE, RECORD_CLONED -> rollBack(reason);
      // After it, and while rolling back: the same action again.
      default -> goTo(stage);
    }
  }
}
