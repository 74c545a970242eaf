package io.basalt.storage.je;

import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.rep.RepInternal;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import com.sleepycat.je.rep.ReplicationNode;
import com.sleepycat.je.rep.StateChangeEvent;
import com.sleepycat.je.rep.MemberActiveException;
import com.sleepycat.je.rep.MemberNotFoundException;
import com.sleepycat.je.rep.RepInternal;
import com.sleepycat.je.rep.impl.PointConsistencyPolicy;
import com.sleepycat.je.rep.impl.RepImpl;
import com.sleepycat.je.rep.util.ReplicationGroupAdmin;
import com.sleepycat.je.utilint.VLSN;
import io.basalt.storage.error.ReplicasUnavailableException;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.Append;
import io.basalt.storage.mutation.BatchResult;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.Increment;
import io.basalt.storage.mutation.RowCondition;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.mutation.RowOperation;
import io.basalt.storage.mutation.RowOutcome;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.RegionStats;
import io.basalt.storage.replication.GroupMember;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.segment.LogSegmentSet;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A region that is one member of its replica group: a {@link JeRegion} on a {@link ReplicatedEnvironment},
 * plus the member's role as the group's elections decide it. Reads and writes go to the region as they
 * are; JE refuses writes unless this member is the group's master (its primary). When JE gives up on the
 * environment (a member that was cut off as primary must roll back commits nobody acknowledged) the engine
 * opens it afresh and this member carries on with the new one; meanwhile it refuses operations.
 */
final class JeReplicaRegion implements ReplicatedRegion {
  /** How long a deletion waits for the primary to notice that the member it deletes has stopped. */
  private static final Duration MEMBER_INACTIVE_WAIT = Duration.ofSeconds(5);

  private final GroupMembership membership;
  private final RoleListener listener;
  private final Consumer<JeRegion> onPromoted;
  private final Consumer<JeReplicaRegion> onDetached;
  private volatile JeRegion region;
  private volatile ReplicatedEnvironment env;
  private volatile ReplicaRole role = ReplicaRole.UNKNOWN;
  private volatile String primary;
  private volatile boolean closed;

  /**
   * {@code onPromoted}: run (off JE's thread) when this member becomes primary; {@code onDetached}: JE
   * stopped the member without a close (the engine reopens it).
   */
  JeReplicaRegion(JeRegion region, ReplicatedEnvironment env, GroupMembership membership, RoleListener listener,
      Consumer<JeRegion> onPromoted, Consumer<JeReplicaRegion> onDetached) {
    this.region = region;
    this.env = env;
    this.membership = membership;
    this.listener = listener;
    this.onPromoted = onPromoted;
    this.onDetached = onDetached;
  }

  /** Follows the member's state from now on (JE reports the current state at once). */
  void listen() {
    ReplicatedEnvironment e = env;
    e.setStateChangeListener(event -> stateChanged(e, event));
  }

  /** Carries on with an environment opened afresh after JE gave up on the last one. */
  synchronized void replace(JeRegion newRegion, ReplicatedEnvironment newEnv) {
    if (closed) {
      newRegion.close();
      return;
    }
    region = newRegion;
    env = newEnv;
    listen();
  }

  boolean isClosed() {
    return closed;
  }

  private void stateChanged(ReplicatedEnvironment source, StateChangeEvent e) {
    if (source != env) {
      return; // a replaced environment's last words
    }
    ReplicaRole before = role;
    role = switch (e.getState()) {
      case MASTER -> ReplicaRole.PRIMARY;
      case REPLICA -> ReplicaRole.SECONDARY;
      case UNKNOWN -> ReplicaRole.UNKNOWN;
      case DETACHED -> ReplicaRole.DETACHED;
    };
    primary = e.getState().isActive() ? e.getMasterNodeName() : null;
    if (role == ReplicaRole.PRIMARY && before != ReplicaRole.PRIMARY) {
      onPromoted.accept(region);
    }
    listener.roleChanged(this, role, Optional.ofNullable(primary));
    if (role == ReplicaRole.DETACHED && !closed) {
      onDetached.accept(this);
    }
  }

  JeRegion region() {
    return region;
  }

  // ---------------------------------------------------------------- ReplicatedRegion

  @Override
  public GroupMembership membership() {
    return membership;
  }

  @Override
  public ReplicaRole role() {
    return role;
  }

  @Override
  public Optional<String> primary() {
    return Optional.ofNullable(primary);
  }

  @Override
  public List<GroupMember> members() {
    List<GroupMember> out = new ArrayList<>();
    try {
      for (ReplicationNode n : env.getGroup().getNodes()) {
        out.add(new GroupMember(n.getName(), n.getHostName(), n.getPort()));
      }
    } catch (DatabaseException e) {
      throw JeErrors.translate("listing the group's members", e);
    }
    return out;
  }

  @Override
  public void transferPrimary(String nodeName, Duration timeout) {
    try {
      env.transferMaster(Set.of(nodeName), (int) timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (DatabaseException e) {
      throw JeErrors.translate("handing the primary role to " + nodeName, e);
    }
  }

  @Override
  public void awaitCaughtUp(Duration timeout) {
    ReplicatedEnvironment e = env;
    try {
      if (e.getState().isMaster()) {
        return;
      }
      if (!e.getState().isReplica()) {
        throw new ReplicasUnavailableException(membership.nodeName() + " of group " + membership.groupName()
            + " follows no primary now (" + e.getState() + ")", null);
      }
      RepImpl impl = RepInternal.getNonNullRepImpl(e);
      long masterEnd = impl.getRepNode().getReplica().getMasterTxnEndVLSN();
      new PointConsistencyPolicy(new VLSN(masterEnd), timeout.toMillis(), TimeUnit.MILLISECONDS)
          .ensureConsistency(impl);
    } catch (DatabaseException ex) {
      throw JeErrors.translate("catching up with the primary", ex);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while catching up with the primary", ie);
    }
  }

  @Override
  public void deleteMember(String nodeName) {
    long deadline = System.nanoTime() + MEMBER_INACTIVE_WAIT.toNanos();
    while (true) {
      try {
        // Through this member's own channel factory: the group's ports admit only guarded connections.
        new ReplicationGroupAdmin(membership.groupName(),
            Set.of(new InetSocketAddress(membership.host(), membership.port())),
            RepInternal.getNonNullRepImpl(env).getChannelFactory()).deleteMember(nodeName);
        return;
      } catch (MemberNotFoundException alreadyGone) {
        return;
      } catch (MemberActiveException stillConnected) {
        // The primary notices a closed member's connection drop a moment after it closed.
        if (System.nanoTime() > deadline) {
          throw new StorageException("deleting member " + nodeName + " of group " + membership.groupName()
              + " failed: it is still running (" + stillConnected.getMessage() + ")", stillConnected);
        }
        sleep(100);
      } catch (DatabaseException ex) {
        throw JeErrors.translate("deleting member " + nodeName + " of group " + membership.groupName(), ex);
      } catch (RuntimeException ex) {
        throw new StorageException("deleting member " + nodeName + " of group " + membership.groupName()
            + " failed: " + ex.getMessage(), ex);
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted", ie);
    }
  }

  /** Every member must hold the barrier before the primary's commit returns; written to their OS first. */
  private static final com.sleepycat.je.TransactionConfig BARRIER = Transactions.config(
      new com.sleepycat.je.Durability(com.sleepycat.je.Durability.SyncPolicy.WRITE_NO_SYNC,
          com.sleepycat.je.Durability.SyncPolicy.WRITE_NO_SYNC, com.sleepycat.je.Durability.ReplicaAckPolicy.ALL));

  @Override
  public long sealForSplit() {
    if (role != ReplicaRole.PRIMARY) {
      throw new io.basalt.storage.error.NotPrimaryException("sealing " + membership.groupName() + " for a split "
          + "refused: " + membership.nodeName() + " is not its primary", primary);
    }
    region.seal(BARRIER);
    long barrier = lastLogPosition();
    // Once every member acknowledged the barrier it is durable, and JE records that in the log itself: its
    // feeder manager writes an empty transaction about a second later (two heartbeats). Nothing else writes
    // after it, so that is where every member's log will end.
    return awaitLogPosition(barrier + 1, DURABLE_MARK_WAIT);
  }

  /** How long {@link #sealForSplit} waits for JE's entry recording that the barrier is durable. */
  private static final Duration DURABLE_MARK_WAIT = Duration.ofSeconds(3);

  @Override
  public long awaitLogPosition(long position, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long at = lastLogPosition();
    while (at < position && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      at = lastLogPosition();
    }
    return at;
  }

  @Override
  public void unseal() {
    region.unseal();
  }

  @Override
  public long lastLogPosition() {
    try {
      return RepInternal.getNonNullRepImpl(env).getVLSNIndex().getRange().getLast().getSequence();
    } catch (DatabaseException e) {
      throw JeErrors.translate("reading the log position of " + membership.nodeName(), e);
    } catch (IllegalStateException e) {
      throw new io.basalt.storage.error.RegionClosedException("member " + membership.nodeName() + " of "
          + membership.groupName() + " is closed", e);
    }
  }

  // ---------------------------------------------------------------- Region, as the member's store

  @Override
  public RegionDescriptor descriptor() {
    return region.descriptor();
  }

  @Override
  public void mutate(RowMutation mutation, Durability durability) {
    region.mutate(mutation, durability);
  }

  @Override
  public BatchResult mutateBatch(List<RowMutation> mutations, Durability durability) {
    return region.mutateBatch(mutations, durability);
  }

  @Override
  public List<Cell> get(byte[] row, ReadOptions options) {
    return region.get(row, options);
  }

  @Override
  public RegionScanner scan(ScanSpec spec) {
    return region.scan(spec);
  }

  @Override
  public List<Cell> increment(Increment increment, Durability durability) {
    return region.increment(increment, durability);
  }

  @Override
  public List<Cell> append(Append append, Durability durability) {
    return region.append(append, durability);
  }

  @Override
  public boolean checkAndMutate(byte[] row, RowCondition condition, RowMutation mutation, Durability durability) {
    return region.checkAndMutate(row, condition, mutation, durability);
  }

  @Override
  public RowOutcome mutateRow(byte[] row, RowCondition condition, List<RowOperation> operations, Durability durability) {
    return region.mutateRow(row, condition, operations, durability);
  }

  @Override
  public Optional<byte[]> midpointRow() {
    return region.midpointRow();
  }

  @Override
  public LogSegmentSet logSegments() {
    return region.logSegments();
  }

  @Override
  public LogSegmentSet logSegmentsAfter(long afterSegment) {
    return region.logSegmentsAfter(afterSegment);
  }

  @Override
  public RegionStats stats() {
    return region.stats();
  }

  @Override
  public void alterFamilies(RegionDescriptor newDescriptor) {
    region.alterFamilies(newDescriptor);
  }

  @Override
  public long maintain() {
    return region.maintain();
  }

  @Override
  public synchronized void close() {
    closed = true;
    region.close();
  }
}
