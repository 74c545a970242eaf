package io.basalt.server.master.protocol;

import io.basalt.server.catalog.SnapshotRecord;
import io.basalt.server.master.protocol.Outcome.Kind;
import java.util.List;

/**
 * Taking a snapshot of a table (paper's clone primitive: each region's closed log segments hard-linked, nothing
 * copied, the regions serving throughout), or importing an exported one, as a pure state machine:
 * <pre>
 *   PersistTxn(STARTED)                                   failure: DeleteTxn, ROLLED_BACK
 *   InParallel(LinkRegionSnapshot | ImportRegionSnapshot  one per region, on its server)   failure: roll back
 *   PersistTxn(LINKED)                                    failure: roll back; done: POINT OF NO RETURN
 *   RecordSnapshot                                        from here on a failure repeats the action
 *   DeleteTxn                                             SNAPSHOT_TAKEN
 * roll back:
 *   PersistTxn(ROLLING_BACK, reason), InParallel(DropRegionSnapshot per region), DeleteTxn    ROLLED_BACK
 * </pre>
 * The catalog names a snapshot only once every region's files are in place, and nothing drops them after that
 * but a delete; a rolled back one leaves no file behind. Recovery ({@link #recover}): STARTED and ROLLING_BACK
 * roll back (links made in part are dropped; the regions were never touched), LINKED records the snapshot.
 *
 * <p>Precondition of {@link #begin}: no snapshot of that name is recorded and no transaction holds it; each part
 * names the server serving the region (a replicated region's primary), and no other transaction holds the regions.
 */
public final class SnapshotProtocol extends StepMachine<SnapshotProtocol.Stage> implements Protocol {
  enum Stage { RECORD_STARTED, LINK, RECORD_LINKED, RECORD_SNAPSHOT, RECORD_ROLLBACK, DROP, DELETE }

  private SnapshotTxn txn;
  private Outcome ending;

  private SnapshotProtocol(SnapshotTxn txn, Stage first) {
    super(first);
    this.txn = txn;
  }

  /** Starts taking {@code snapshot} from its regions as they are served now. */
  public static SnapshotProtocol begin(String id, SnapshotRecord snapshot) {
    return start(new SnapshotTxn(id, SnapshotTxn.Phase.STARTED, snapshot, "", ""));
  }

  /** Starts bringing in an exported snapshot: each part's server copies its region's files from {@code directory}. */
  public static SnapshotProtocol importFrom(String id, SnapshotRecord snapshot, String directory) {
    if (directory.isEmpty()) {
      throw new IllegalArgumentException("an import needs the export's directory");
    }
    return start(new SnapshotTxn(id, SnapshotTxn.Phase.STARTED, snapshot, directory, ""));
  }

  private static SnapshotProtocol start(SnapshotTxn txn) {
    if (txn.snapshot().parts().isEmpty()) {
      SnapshotProtocol p = new SnapshotProtocol(txn, Stage.RECORD_STARTED);
      p.finish(new Outcome(Kind.REFUSED, "table " + txn.snapshot().table().getTableName() + " has no region to snapshot"));
      return p;
    }
    SnapshotProtocol p = new SnapshotProtocol(txn, Stage.RECORD_STARTED);
    p.ending = p.takenOutcome();
    return p;
  }

  /** Finishes or undoes a snapshot found in ZooKeeper, as its phase says (see the class comment). */
  public static SnapshotProtocol recover(SnapshotTxn txn) {
    return switch (txn.phase()) {
      case STARTED -> {
        SnapshotProtocol p = new SnapshotProtocol(txn, Stage.RECORD_ROLLBACK);
        p.ending = new Outcome(Kind.ROLLED_BACK, "a new master found snapshot " + txn.snapshot().name()
            + " before every region was linked");
        yield p;
      }
      case ROLLING_BACK -> {
        SnapshotProtocol p = new SnapshotProtocol(txn, Stage.DROP);
        p.ending = new Outcome(Kind.ROLLED_BACK, txn.reason());
        yield p;
      }
      case LINKED -> {
        SnapshotProtocol p = new SnapshotProtocol(txn, Stage.RECORD_SNAPSHOT);
        p.ending = p.takenOutcome();
        yield p;
      }
      case DELETING -> throw new IllegalArgumentException("a deletion is DeleteSnapshotProtocol's: " + txn);
    };
  }

  @Override
  public String id() {
    return txn.id();
  }

  /** The record as last persisted, or about to be. */
  public SnapshotTxn txn() {
    return txn;
  }

  @Override
  public boolean committed() {
    return txn.phase() == SnapshotTxn.Phase.LINKED;
  }

  private Outcome takenOutcome() {
    return new Outcome(Kind.SNAPSHOT_TAKEN, "snapshot " + txn.snapshot().name() + " of "
        + txn.snapshot().table().getTableName() + ": " + txn.snapshot().parts().size() + " regions"
        + (txn.importFrom().isEmpty() ? "" : ", imported from " + txn.importFrom()));
  }

  private void rollBack(String reason) {
    ending = new Outcome(Kind.ROLLED_BACK, reason);
    goTo(Stage.RECORD_ROLLBACK);
  }

  @Override
  Action actionFor(Stage stage) {
    String name = txn.snapshot().name();
    List<SnapshotRecord.Part> parts = txn.snapshot().parts();
    return switch (stage) {
      case RECORD_STARTED -> new Action.PersistTxn(txn);
      case LINK -> new Action.InParallel(parts.stream().<Action>map(p -> txn.importFrom().isEmpty()
          ? new SnapshotActions.LinkRegionSnapshot(p.server(), p.region(), name)
          : new SnapshotActions.ImportRegionSnapshot(p.server(), p.region(), name, txn.importFrom())).toList());
      case RECORD_LINKED -> new Action.PersistTxn(txn.at(SnapshotTxn.Phase.LINKED));
      case RECORD_SNAPSHOT -> new SnapshotActions.RecordSnapshot(txn.snapshot());
      case RECORD_ROLLBACK -> new Action.PersistTxn(txn.rollingBack(ending.reason()));
      case DROP -> new Action.InParallel(parts.stream()
          .<Action>map(p -> new SnapshotActions.DropRegionSnapshot(p.server(), p.region(), name)).toList());
      case DELETE -> new Action.DeleteTxn(txn.id());
    };
  }

  @Override
  boolean accepts(Stage stage, Result result) {
    return stage == Stage.LINK || stage == Stage.DROP ? result instanceof Result.Each : result instanceof Result.Done;
  }

  @Override
  void onCompleted(Stage stage, Result result) {
    switch (stage) {
      case RECORD_STARTED -> goTo(Stage.LINK);
      case LINK -> goTo(Stage.RECORD_LINKED);
      case RECORD_LINKED -> {
        txn = txn.at(SnapshotTxn.Phase.LINKED);
        ending = takenOutcome();
        goTo(Stage.RECORD_SNAPSHOT);
      }
      case RECORD_SNAPSHOT, DROP -> goTo(Stage.DELETE);
      case RECORD_ROLLBACK -> {
        txn = txn.rollingBack(ending.reason());
        goTo(Stage.DROP);
      }
      case DELETE -> finish(ending);
    }
  }

  @Override
  void onFailed(Stage stage, String reason) {
    switch (stage) {
      // The record may or may not exist, and nothing was linked: make sure it does not.
      case RECORD_STARTED -> {
        ending = new Outcome(Kind.ROLLED_BACK, reason);
        goTo(Stage.DELETE);
      }
      // Before the point of no return (a failed LINKED record may have been written: the rollback record
      // overwrites it before anything is dropped).
      case LINK, RECORD_LINKED -> rollBack(reason);
      default -> goTo(stage);
    }
  }
}
