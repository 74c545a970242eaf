package io.basalt.storage.je;

import com.sleepycat.je.Durability.ReplicaAckPolicy;
import com.sleepycat.je.Durability.SyncPolicy;
import com.sleepycat.je.TransactionConfig;
import io.basalt.storage.mutation.Durability;
import java.util.EnumMap;
import java.util.Map;

/**
 * How each HBase durability level commits a JE transaction. Alone, a region's log is its WAL:
 * {@code SKIP_WAL}/{@code ASYNC_WAL} leave the commit in the log buffer (written within the flush
 * interval), {@code SYNC_WAL} writes it to the OS, {@code FSYNC_WAL} fsyncs it. In a replica group the
 * primary's log does the same and {@code SYNC_WAL}/{@code FSYNC_WAL} also wait until a majority of the group
 * holds the commit (the secondaries acknowledge once they have it in memory, in log order): one server's
 * death or lost disk then loses no acknowledged write, and a primary cut off from its majority cannot
 * acknowledge at all.
 */
final class CommitPolicies {
  private CommitPolicies() {}

  static Map<Durability, TransactionConfig> of(boolean replicated) {
    ReplicaAckPolicy acks = replicated ? ReplicaAckPolicy.SIMPLE_MAJORITY : null;
    ReplicaAckPolicy none = replicated ? ReplicaAckPolicy.NONE : null;
    SyncPolicy replicas = replicated ? SyncPolicy.NO_SYNC : null;
    Map<Durability, TransactionConfig> out = new EnumMap<>(Durability.class);
    out.put(Durability.SKIP_WAL, config(SyncPolicy.NO_SYNC, replicas, none));
    out.put(Durability.ASYNC_WAL, config(SyncPolicy.NO_SYNC, replicas, none));
    out.put(Durability.SYNC_WAL, config(SyncPolicy.WRITE_NO_SYNC, replicas, acks));
    out.put(Durability.FSYNC_WAL, config(SyncPolicy.SYNC, replicas, acks));
    return out;
  }

  /**
   * A batch's commits before its last: into the log buffer, no acknowledgement. The last commit's log write
   * carries them (JE writes its buffer in order), and so does its acknowledgement (secondaries acknowledge
   * in log order).
   */
  static TransactionConfig unflushed(boolean replicated) {
    return config(SyncPolicy.NO_SYNC, replicated ? SyncPolicy.NO_SYNC : null,
        replicated ? ReplicaAckPolicy.NONE : null);
  }

  private static TransactionConfig config(SyncPolicy local, SyncPolicy replicas, ReplicaAckPolicy acks) {
    return Transactions.config(new com.sleepycat.je.Durability(local, replicas, acks));
  }
}
