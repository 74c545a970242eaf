package io.basalt.server.master.protocol;

import io.basalt.server.master.protocol.Outcome.Kind;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A region move (paper §III.E) as a pure state machine. The actions, in order:
 * <pre>
 *   PersistTxn(STARTED)                          failure: DeleteTxn, ROLLED_BACK
 *   SetRegionState(region, source, MOVING)       failure of this or any action down to PersistTxn(OPENED): roll back
 *   PreClose(source, region)         -> manifest     the source keeps serving
 *   PreOpen(target, region, source, manifest)        done when the target has pulled it all
 *   PersistTxn(PREFETCHED)
 *   Close(source, region)            -> final manifest   unavailability starts
 *   Open(target, region, source, final manifest)     pulls only what is new, opens
 *   PersistTxn(OPENED)                           done: POINT OF NO RETURN
 *   PublishMove(region, source, target)          from here on a failure repeats the action
 *   OpenRegion(target, region)                   in case the target restarted since it opened
 *   ForgetRegion(source, region, target)
 *   DeleteTxn                                    MOVED
 * roll back:
 *   PersistTxn(ROLLING_BACK, reason), AbortMoveIn(target, region), SetRegionState(region, source, OPEN),
 *   AbortMoveAway(source, region), DeleteTxn                 ROLLED_BACK
 * </pre>
 * The target closes its copy before the catalog says OPEN again and the source serves again, so the two
 * never serve at once. The catalog names a region on a server before that server opens it (the target
 * is published before OpenRegion, the source is OPEN again before it reopens): a server that restarts in
 * between is given the region by ordinary assignment.
 *
 * <p>Recovery from the last persisted record ({@link #recover}): STARTED and PREFETCHED roll back (the
 * target may even have opened, but no client was sent to it, and the source's copy is whole);
 * ROLLING_BACK finishes rolling back; OPENED finishes the move (the target's copy is complete and durable;
 * publishing, opening and forgetting repeat safely). A crash between an action and the record after it
 * lands on the record before it, whose recovery works whether or not the action happened.
 *
 * <p>While a server the protocol needs is down its action fails and is retried (or, before the point of
 * no return, rolls back, which then waits for it). Precondition of {@link #begin}: the region is OPEN on
 * {@code source} in the catalog, served there, and held by no other transaction.
 */
public final class MoveProtocol extends StepMachine<MoveProtocol.Stage> implements Protocol {
  enum Stage {
    RECORD_STARTED, MARK_MOVING, PRE_CLOSE, PRE_OPEN, RECORD_PREFETCHED, CLOSE, OPEN, RECORD_OPENED, PUBLISH,
    ENSURE_OPEN, FORGET_SOURCE, RECORD_ROLLBACK, ABORT_IN, MARK_OPEN, ABORT_AWAY, DELETE
  }

  /** The record as last persisted, or about to be. */
  private MoveTxn txn;
  private Result.Manifest manifest;
  private Result.Manifest finalManifest;
  /** What the protocol reports once its record is deleted. */
  private Outcome ending;

  private MoveProtocol(MoveTxn txn, Stage first) {
    super(first);
    this.txn = txn;
  }

  /**
   * Starts moving {@code region} from {@code source}, which serves it, to {@code target}. A target at the
   * source's address ends it REFUSED at once.
   */
  public static MoveProtocol begin(String id, RegionInfo region, ServerName source, ServerName target) {
    MoveProtocol p = new MoveProtocol(new MoveTxn(id, MoveTxn.Phase.STARTED, region, source, target, ""),
        Stage.RECORD_STARTED);
    if (ServerName.isSameAddress(source, target)) {
      p.finish(new Outcome(Kind.REFUSED, region.getRegionNameAsString() + " is already on " + target));
    }
    return p;
  }

  /** Finishes or undoes a move found in ZooKeeper, as its phase says (see the class comment). */
  public static MoveProtocol recover(MoveTxn txn) {
    Stage first = switch (txn.phase()) {
      case STARTED, PREFETCHED -> Stage.RECORD_ROLLBACK;
      case ROLLING_BACK -> Stage.ABORT_IN;
      case OPENED -> Stage.PUBLISH;
    };
    MoveProtocol p = new MoveProtocol(txn, first);
    p.ending = switch (txn.phase()) {
      case STARTED, PREFETCHED -> new Outcome(Kind.ROLLED_BACK,
          "a new master found the move before the target's open was recorded");
      case ROLLING_BACK -> new Outcome(Kind.ROLLED_BACK, txn.reason());
      case OPENED -> p.movedOutcome();
    };
    return p;
  }

  @Override
  public String id() {
    return txn.id();
  }

  /** The record as last persisted (or being persisted). */
  public MoveTxn txn() {
    return txn;
  }

  @Override
  public boolean committed() {
    return txn.phase() == MoveTxn.Phase.OPENED;
  }

  private Outcome movedOutcome() {
    return new Outcome(Kind.MOVED, txn.region().getRegionNameAsString() + " moved from " + txn.source() + " to "
        + txn.target());
  }

  private void rollBack(String reason) {
    ending = new Outcome(Kind.ROLLED_BACK, reason);
    goTo(Stage.RECORD_ROLLBACK);
  }

  @Override
  Action actionFor(Stage stage) {
    RegionInfo region = txn.region();
    ServerName source = txn.source();
    ServerName target = txn.target();
    return switch (stage) {
      case RECORD_STARTED -> new Action.PersistTxn(txn);
      case MARK_MOVING -> new Action.SetRegionState(region, source, RegionState.MOVING);
      case PRE_CLOSE -> new Action.PreClose(source, region);
      case PRE_OPEN -> new Action.PreOpen(target, region, source, manifest);
      case RECORD_PREFETCHED -> new Action.PersistTxn(txn.at(MoveTxn.Phase.PREFETCHED));
      case CLOSE -> new Action.Close(source, region);
      case OPEN -> new Action.Open(target, region, source, finalManifest);
      case RECORD_OPENED -> new Action.PersistTxn(txn.at(MoveTxn.Phase.OPENED));
      case PUBLISH -> new Action.PublishMove(region, source, target);
      case ENSURE_OPEN -> new Action.OpenRegion(target, region);
      case FORGET_SOURCE -> new Action.ForgetRegion(source, region, target);
      case RECORD_ROLLBACK -> new Action.PersistTxn(txn.rollingBack(ending.reason()));
      case ABORT_IN -> new Action.AbortMoveIn(target, region);
      case ABORT_AWAY -> new Action.AbortMoveAway(source, region);
      case MARK_OPEN -> new Action.SetRegionState(region, source, RegionState.OPEN);
      case DELETE -> new Action.DeleteTxn(txn.id());
    };
  }

  @Override
  boolean accepts(Stage stage, Result result) {
    if (stage == Stage.PRE_CLOSE || stage == Stage.CLOSE) {
      return result instanceof Result.Manifest;
    }
    return result instanceof Result.Done;
  }

  @Override
  void onCompleted(Stage stage, Result result) {
    switch (stage) {
      case RECORD_STARTED -> goTo(Stage.MARK_MOVING);
      case MARK_MOVING -> goTo(Stage.PRE_CLOSE);
      case PRE_CLOSE -> {
        manifest = (Result.Manifest) result;
        goTo(Stage.PRE_OPEN);
      }
      case PRE_OPEN -> goTo(Stage.RECORD_PREFETCHED);
      case RECORD_PREFETCHED -> {
        txn = txn.at(MoveTxn.Phase.PREFETCHED);
        goTo(Stage.CLOSE);
      }
      case CLOSE -> {
        finalManifest = (Result.Manifest) result;
        goTo(Stage.OPEN);
      }
      case OPEN -> goTo(Stage.RECORD_OPENED);
      case RECORD_OPENED -> {
        txn = txn.at(MoveTxn.Phase.OPENED);
        ending = movedOutcome();
        goTo(Stage.PUBLISH);
      }
      case PUBLISH -> goTo(Stage.ENSURE_OPEN);
      case ENSURE_OPEN -> goTo(Stage.FORGET_SOURCE);
      case FORGET_SOURCE, ABORT_AWAY -> goTo(Stage.DELETE);
      case RECORD_ROLLBACK -> {
        txn = txn.rollingBack(ending.reason());
        goTo(Stage.ABORT_IN);
      }
      case ABORT_IN -> goTo(Stage.MARK_OPEN);
      case MARK_OPEN -> goTo(Stage.ABORT_AWAY);
      case DELETE -> finish(ending);
    }
  }

  @Override
  void onFailed(Stage stage, String reason) {
    switch (stage) {
      // The record may or may not exist: make sure it does not; nothing else happened.
      case RECORD_STARTED -> {
        ending = new Outcome(Kind.ROLLED_BACK, reason);
        goTo(Stage.DELETE);
      }
      // Before the point of no return (a failed OPENED record may have been written: the rollback record
      // overwrites it before anything is undone).
      case MARK_MOVING, PRE_CLOSE, PRE_OPEN, RECORD_PREFETCHED, CLOSE, OPEN, RECORD_OPENED -> rollBack(reason);
      // After it, and while rolling back: the same action again.
      default -> goTo(stage);
    }
  }
}
