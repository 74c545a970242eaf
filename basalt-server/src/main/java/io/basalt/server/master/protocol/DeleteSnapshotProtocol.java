package io.basalt.server.master.protocol;

import io.basalt.server.catalog.SnapshotRecord;
import io.basalt.server.master.protocol.Outcome.Kind;

/**
 * Deleting a snapshot with its files, as a pure state machine:
 * <pre>
 *   PersistTxn(DELETING)                          failure: DeleteTxn, ROLLED_BACK; done: POINT OF NO RETURN
 *   ForgetSnapshot                                from here on a failure repeats the action
 *   InParallel(DropRegionSnapshot per region)
 *   DeleteTxn                                     SNAPSHOT_DELETED
 * </pre>
 * The catalog forgets the snapshot before any file goes, so no client is ever shown a snapshot missing a region;
 * the record keeps every server to clean, so a crash at any step leaves no file behind once recovered. A server
 * that is down holds the deletion until it returns (its files are only there).
 */
public final class DeleteSnapshotProtocol extends StepMachine<DeleteSnapshotProtocol.Stage> implements Protocol {
  enum Stage { RECORD_DELETING, FORGET, DROP, DELETE }

  private final SnapshotTxn txn;
  private Outcome ending;
  /** Whether the DELETING record is known written (recovered from it, or reported done). */
  private boolean recorded;

  private DeleteSnapshotProtocol(SnapshotTxn txn, Stage first) {
    super(first);
    this.txn = txn;
    this.ending = new Outcome(Kind.SNAPSHOT_DELETED, "snapshot " + txn.snapshot().name() + " deleted with the files of its "
        + txn.snapshot().parts().size() + " regions");
  }

  public static DeleteSnapshotProtocol begin(String id, SnapshotRecord snapshot) {
    return new DeleteSnapshotProtocol(new SnapshotTxn(id, SnapshotTxn.Phase.DELETING, snapshot, "", ""),
        Stage.RECORD_DELETING);
  }

  public static DeleteSnapshotProtocol recover(SnapshotTxn txn) {
    if (txn.phase() != SnapshotTxn.Phase.DELETING) {
      throw new IllegalArgumentException("not a deletion: " + txn);
    }
    DeleteSnapshotProtocol p = new DeleteSnapshotProtocol(txn, Stage.FORGET);
    p.recorded = true;
    return p;
  }

  @Override
  public String id() {
    return txn.id();
  }

  public SnapshotTxn txn() {
    return txn;
  }

  @Override
  public boolean committed() {
    return recorded;
  }

  @Override
  Action actionFor(Stage stage) {
    return switch (stage) {
      case RECORD_DELETING -> new Action.PersistTxn(txn);
      case FORGET -> new SnapshotActions.ForgetSnapshot(txn.snapshot().name());
      case DROP -> new Action.InParallel(txn.snapshot().parts().stream()
          .<Action>map(p -> new SnapshotActions.DropRegionSnapshot(p.server(), p.region(), txn.snapshot().name())).toList());
      case DELETE -> new Action.DeleteTxn(txn.id());
    };
  }

  @Override
  boolean accepts(Stage stage, Result result) {
    return stage == Stage.DROP ? result instanceof Result.Each : result instanceof Result.Done;
  }

  @Override
  void onCompleted(Stage stage, Result result) {
    switch (stage) {
      case RECORD_DELETING -> {
        recorded = true;
        goTo(Stage.FORGET);
      }
      case FORGET -> goTo(Stage.DROP);
      case DROP -> goTo(Stage.DELETE);
      case DELETE -> finish(ending);
    }
  }

  @Override
  void onFailed(Stage stage, String reason) {
    if (stage == Stage.RECORD_DELETING) {
      // Nothing was done; the record may exist: make sure it does not.
      ending = new Outcome(Kind.ROLLED_BACK, reason);
      goTo(Stage.DELETE);
    } else {
      goTo(stage);
    }
  }
}
