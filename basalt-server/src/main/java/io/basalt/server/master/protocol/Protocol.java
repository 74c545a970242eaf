package io.basalt.server.master.protocol;

import java.io.IOException;
import java.util.Optional;

/**
 * A split, move or member change as a pure state machine (see the package documentation for the driver's loop and
 * rules). Not thread-safe: one driver thread owns a protocol.
 */
public sealed interface Protocol permits SplitProtocol, GroupSplitProtocol, MoveProtocol, ReplaceMemberProtocol,
    SnapshotProtocol, DeleteSnapshotProtocol, CloneSnapshotProtocol, MergeProtocol, GroupMergeProtocol {
  /** The transaction's id (its znode name). */
  String id();

  /**
   * The action to perform now, empty once the protocol is done. Returns the same instance until it is
   * reported with {@link #completed} or {@link #failed}.
   */
  Optional<Action> next();

  /**
   * Reports that {@code action} (the instance {@link #next()} returned) was done, with its result:
   * {@link Result#DONE} unless the action documents another.
   *
   * @throws IllegalStateException if {@code action} is not the outstanding one
   * @throws IllegalArgumentException if the result is not of the kind the action returns
   */
  void completed(Action action, Result result);

  /** {@code completed(action, Result.DONE)}. */
  default void completed(Action action) {
    completed(action, Result.DONE);
  }

  /**
   * Reports that {@code action} failed or that its outcome is unknown (a timeout, a lost connection: it
   * may have been done). Before the point of no return the protocol turns to rolling back; after it, and
   * while rolling back, {@link #next()} returns the same action again, to be retried (the driver chooses
   * when, for instance once a server is back).
   */
  void failed(Action action, String reason);

  /**
   * Whether the point of no return is passed (a split's clone or a move's open is recorded): the
   * outcome will be SPLIT or MOVED, and clients are, or are about to be, sent to the new regions.
   */
  boolean committed();

  boolean isDone();

  /** How it ended, once {@link #isDone()}. */
  Optional<Outcome> outcome();

  /**
   * The protocol that finishes or undoes a transaction found in ZooKeeper (after a master crash or
   * failover), decided from that record alone.
   */
  static Protocol recover(byte[] record) throws IOException {
    Txn txn = Txn.parse(record);
    if (txn instanceof SplitTxn split) {
      return SplitProtocol.recover(split);
    }
    if (txn instanceof MemberTxn member) {
      return ReplaceMemberProtocol.recover(member);
    }
    if (txn instanceof GroupSplitTxn groupSplit) {
      return GroupSplitProtocol.recover(groupSplit);
    }
    if (txn instanceof SnapshotTxn snapshot) {
      return snapshot.phase() == SnapshotTxn.Phase.DELETING ? DeleteSnapshotProtocol.recover(snapshot)
          : SnapshotProtocol.recover(snapshot);
    }
    if (txn instanceof CloneTxn clone) {
      return CloneSnapshotProtocol.recover(clone);
    }
    if (txn instanceof MergeTxn merge) {
      return MergeProtocol.recover(merge);
    }
    if (txn instanceof GroupMergeTxn merge) {
      return GroupMergeProtocol.recover(merge);
    }
    return MoveProtocol.recover((MoveTxn) txn);
  }
}
