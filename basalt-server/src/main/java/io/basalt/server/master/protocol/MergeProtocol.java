package io.basalt.server.master.protocol;

import io.basalt.server.master.protocol.Outcome.Kind;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A merge of two adjacent regions served by one server (HBase's MergeTableRegionsProcedure; a move brings them
 * together first) as a pure state machine. The actions, in order:
 * <pre>
 *   PersistTxn(STARTED)                        failure: DeleteTxn, ROLLED_BACK
 *   SetRegionState(lower, MERGING)             failure: roll back
 *   SetRegionState(upper, MERGING)             failure: roll back
 *   CloseAndMerge(server, lower, upper, merged) failure: roll back
 *   PersistTxn(MERGED)                         failure: roll back; done: POINT OF NO RETURN
 *   PublishMerge(lower, upper, merged, server) from here on a failure repeats the action
 *   OpenRegion(server, merged)
 *   PersistTxn(PUBLISHED)
 *   DropRegionFiles(server, lower), DropRegionFiles(server, upper)
 *   DeleteTxn                                  MERGED
 * roll back:
 *   PersistTxn(ROLLING_BACK, reason), SetRegionState(lower, OPEN), SetRegionState(upper, OPEN),
 *   RollBackMerge(server, lower, upper, merged), DeleteTxn                  ROLLED_BACK
 * </pre>
 * The two regions stop serving at the close and the merged one serves from its open: the unavailability is the
 * close, the copy of the smaller region's records and one open. The catalog always names a region before its
 * server opens it (the merged one is published before it opens; the old ones are OPEN again before they reopen),
 * so a server that restarts in between is given the right regions by ordinary assignment.
 *
 * <p>Recovery from the last persisted record ({@link #recover}): STARTED rolls back (the merged directory may be
 * built, wholly or in part, but was never opened or published, and the two old directories are never changed by
 * the merge); ROLLING_BACK finishes rolling back; MERGED and PUBLISHED finish the merge (the merged directory is
 * durable and every later step repeats safely).
 *
 * <p>Precondition of {@link #begin}: both regions are OPEN on {@code server} in the catalog, served there, and
 * held by no other transaction; they are adjacent ({@link MergeTxn}).
 */
public final class MergeProtocol extends StepMachine<MergeProtocol.Stage> implements Protocol {
  enum Stage {
    RECORD_STARTED, MARK_LOWER, MARK_UPPER, MERGE, RECORD_MERGED, PUBLISH, OPEN_MERGED, RECORD_PUBLISHED,
    DROP_LOWER, DROP_UPPER, RECORD_ROLLBACK, REOPEN_LOWER, REOPEN_UPPER, UNDO, DELETE
  }

  private MergeTxn txn;
  /** What the protocol reports once its record is deleted. */
  private Outcome ending;

  private MergeProtocol(MergeTxn txn, Stage first) {
    super(first);
    this.txn = txn;
  }

  /**
   * Starts merging {@code lower} and {@code upper} (adjacent, lower first), both served by {@code server}, into a
   * region named with {@code mergedRegionId} (a fresh id, larger than both).
   */
  public static MergeProtocol begin(String id, RegionInfo lower, RegionInfo upper, ServerName server,
      long mergedRegionId) {
    return new MergeProtocol(new MergeTxn(id, MergeTxn.Phase.STARTED, lower, upper, server, mergedRegionId, ""),
        Stage.RECORD_STARTED);
  }

  /** Finishes or undoes a merge found in ZooKeeper, as its phase says (see the class comment). */
  public static MergeProtocol recover(MergeTxn txn) {
    Stage first = switch (txn.phase()) {
      case STARTED -> Stage.RECORD_ROLLBACK;
      case ROLLING_BACK -> Stage.REOPEN_LOWER;
      case MERGED -> Stage.PUBLISH;
      case PUBLISHED -> Stage.OPEN_MERGED;
    };
    MergeProtocol p = new MergeProtocol(txn, first);
    p.ending = switch (txn.phase()) {
      case STARTED -> new Outcome(Kind.ROLLED_BACK, "a new master found the merge before it was recorded done");
      case ROLLING_BACK -> new Outcome(Kind.ROLLED_BACK, txn.reason());
      case MERGED, PUBLISHED -> p.mergedOutcome();
    };
    return p;
  }

  @Override
  public String id() {
    return txn.id();
  }

  /** The record as last persisted (or being persisted). */
  public MergeTxn txn() {
    return txn;
  }

  @Override
  public boolean committed() {
    return txn.phase() == MergeTxn.Phase.MERGED || txn.phase() == MergeTxn.Phase.PUBLISHED;
  }

  private Outcome mergedOutcome() {
    return new Outcome(Kind.MERGED, txn.lower().getRegionNameAsString() + " and " + txn.upper().getRegionNameAsString()
        + " merged into " + txn.merged().getRegionNameAsString());
  }

  @Override
  Action actionFor(Stage stage) {
    RegionInfo lower = txn.lower();
    RegionInfo upper = txn.upper();
    ServerName server = txn.server();
    return switch (stage) {
      case RECORD_STARTED -> new Action.PersistTxn(txn);
      case MARK_LOWER -> new Action.SetRegionState(lower, server, RegionState.MERGING);
      case MARK_UPPER -> new Action.SetRegionState(upper, server, RegionState.MERGING);
      case MERGE -> new Action.CloseAndMerge(server, lower, upper, txn.merged());
      case RECORD_MERGED -> new Action.PersistTxn(txn.at(MergeTxn.Phase.MERGED));
      case PUBLISH -> new Action.PublishMerge(lower, upper, txn.merged(), server);
      case OPEN_MERGED -> new Action.OpenRegion(server, txn.merged());
      case RECORD_PUBLISHED -> new Action.PersistTxn(txn.at(MergeTxn.Phase.PUBLISHED));
      case DROP_LOWER -> new Action.DropRegionFiles(server, lower);
      case DROP_UPPER -> new Action.DropRegionFiles(server, upper);
      case RECORD_ROLLBACK -> new Action.PersistTxn(txn.rollingBack(ending.reason()));
      case REOPEN_LOWER -> new Action.SetRegionState(lower, server, RegionState.OPEN);
      case REOPEN_UPPER -> new Action.SetRegionState(upper, server, RegionState.OPEN);
      case UNDO -> new Action.RollBackMerge(server, lower, upper, txn.merged());
      case DELETE -> new Action.DeleteTxn(txn.id());
    };
  }

  @Override
  boolean accepts(Stage stage, Result result) {
    return result instanceof Result.Done;
  }

  @Override
  void onCompleted(Stage stage, Result result) {
    switch (stage) {
      case RECORD_STARTED -> goTo(Stage.MARK_LOWER);
      case MARK_LOWER -> goTo(Stage.MARK_UPPER);
      case MARK_UPPER -> goTo(Stage.MERGE);
      case MERGE -> goTo(Stage.RECORD_MERGED);
      case RECORD_MERGED -> {
        txn = txn.at(MergeTxn.Phase.MERGED);
        ending = mergedOutcome();
        goTo(Stage.PUBLISH);
      }
      case PUBLISH -> goTo(Stage.OPEN_MERGED);
      case OPEN_MERGED -> goTo(txn.phase() == MergeTxn.Phase.PUBLISHED ? Stage.DROP_LOWER : Stage.RECORD_PUBLISHED);
      case RECORD_PUBLISHED -> {
        txn = txn.at(MergeTxn.Phase.PUBLISHED);
        goTo(Stage.DROP_LOWER);
      }
      case DROP_LOWER -> goTo(Stage.DROP_UPPER);
      case DROP_UPPER, UNDO -> goTo(Stage.DELETE);
      case RECORD_ROLLBACK -> {
        txn = txn.rollingBack(ending.reason());
        goTo(Stage.REOPEN_LOWER);
      }
      case REOPEN_LOWER -> goTo(Stage.REOPEN_UPPER);
      case REOPEN_UPPER -> goTo(Stage.UNDO);
      case DELETE -> finish(ending);
    }
  }

  @Override
  void onFailed(Stage stage, String reason) {
    switch (stage) {
      // The record may or may not exist: make sure it does not.
      case RECORD_STARTED -> {
        ending = new Outcome(Kind.ROLLED_BACK, reason);
        goTo(Stage.DELETE);
      }
      // Before the point of no return (a failed MERGED record may have been written: the rollback record
      // overwrites it before anything is undone).
      case MARK_LOWER, MARK_UPPER, MERGE, RECORD_MERGED -> {
        ending = new Outcome(Kind.ROLLED_BACK, reason);
        goTo(Stage.RECORD_ROLLBACK);
      }
      // After it, and while rolling back: the same action again.
      default -> goTo(stage);
    }
  }
}
