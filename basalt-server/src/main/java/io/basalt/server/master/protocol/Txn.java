package io.basalt.server.master.protocol;

import java.io.IOException;

/**
 * A split, move or member change in flight as persisted in its ZooKeeper node ({@code ROOT/transactions/<id>}): enough
 * for a new master to decide alone whether to finish or undo it ({@link Protocol#recover(byte[])}).
 */
public sealed interface Txn permits SplitTxn, GroupSplitTxn, MoveTxn, MemberTxn, SnapshotTxn, CloneTxn, MergeTxn,
    GroupMergeTxn {
  /** The znode name: unique among transactions in flight. */
  String id();

  /** The compact, versioned, checksummed encoding documented on each record. */
  byte[] toBytes();

  /** Decodes any kind of record; IOException if it is corrupt or of an unknown kind or version. */
  static Txn parse(byte[] data) throws IOException {
    if (data.length > 0 && data[0] == SplitTxn.KIND) {
      return SplitTxn.parse(data);
    }
    if (data.length > 0 && data[0] == GroupSplitTxn.KIND) {
      return GroupSplitTxn.parse(data);
    }
    if (data.length > 0 && data[0] == MoveTxn.KIND) {
      return MoveTxn.parse(data);
    }
    if (data.length > 0 && data[0] == MemberTxn.KIND) {
      return MemberTxn.parse(data);
    }
    if (data.length > 0 && data[0] == SnapshotTxn.KIND) {
      return SnapshotTxn.parse(data);
    }
    if (data.length > 0 && data[0] == CloneTxn.KIND) {
      return CloneTxn.parse(data);
    }
    if (data.length > 0 && data[0] == MergeTxn.KIND) {
      return MergeTxn.parse(data);
    }
    if (data.length > 0 && data[0] == GroupMergeTxn.KIND) {
      return GroupMergeTxn.parse(data);
    }
    throw new IOException("not a split, move or member change transaction record");
  }
}
