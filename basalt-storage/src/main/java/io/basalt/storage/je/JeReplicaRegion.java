package io.basalt.storage.je;

import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.rep.RepInternal;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import com.sleepycat.je.rep.ReplicationNode;
import com.sleepycat.je.rep.StateChangeEvent;
import com.sleepycat.je.rep.impl.PointConsistencyPolicy;
import com.sleepycat.je.rep.impl.RepImpl;
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
  /** How long the target of a primary hand-over has to answer before the hand-over starts. */
  private static final Duration TARGET_ANSWER_TIMEOUT = Duration.ofSeconds(1);

  private final GroupMembership membership;
  private final RoleListener listener;
  private final Consumer<JeRegion> onPromoted;
  private final Consumer<JeReplicaRegion> onDetached;
  private volatile JeRegion region;
  private volatile ReplicatedEnvironment env;
  private volatile ReplicaRole role = ReplicaRole.UNKNOWN;
  private volatile String primary;
  private volatile boolean closed;
  /** When this member last became UNKNOWN (knowing no primary), and last asked; see {@link #askForPrimary}. */
  private volatile long unknownSinceNanos = System.nanoTime();
  private volatile long askedNanos;

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
    if (role == ReplicaRole.UNKNOWN && before != ReplicaRole.UNKNOWN) {
      unknownSinceNanos = System.nanoTime();
    }
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

  /**
   * Puts right the member id JE runs this member under when its group records another one for its name, and says
   * whether it did. A member that joins empty under a name the group had before replays the group's history from
   * the start, and JE keeps the first id it finds there for its name (an earlier incarnation's), not the one it was
   * just given; its election messages then carry an id the others do not know, and once the primary dies no one is
   * elected (the churn soak; {@code ReplicaGroupTest} reproduces it). The id is set as JE sets it, on the one
   * object its elections and feeders share.
   */
  boolean fixStaleIdentity() {
    try {
      var node = RepInternal.getNonNullRepImpl(env).getRepNode();
      var self = node.getNameIdPair();
      var recorded = node.getGroup().getMember(membership.nodeName());
      if (closed || recorded == null || self.hasNullId() || recorded.getNodeId() == self.getId()) {
        return false;
      }
      self.revertToNull();
      self.update(recorded.getNameIdPair());
      return true;
    } catch (RuntimeException closedOrStarting) {
      return false;
    }
  }

  /**
   * While this member has known no primary for at least {@code after}, asks its helpers (the members it was
   * opened with), at most once per {@code after}, who the primary is, as JE does once when a member starts. JE asks once only, and after that
   * a member learns of a primary only from elections, which it runs with the group as its own log records it.
   * A split's non-founding member has its parent's group in its log (other ports): if that one question went
   * unanswered (a loaded machine, JE's 500 ms timeouts), it stayed without a primary, and its daughter without
   * a majority, until some election reached it (70 s in the churn soak).
   */
  void askForPrimary(Duration after) {
    ReplicatedEnvironment e = env;
    long now = System.nanoTime();
    if (closed || role != ReplicaRole.UNKNOWN || now - unknownSinceNanos < after.toNanos()
        || now - askedNanos < after.toNanos()) {
      return;
    }
    askedNanos = now;
    try {
      RepImpl impl = RepInternal.getNonNullRepImpl(e);
      impl.getRepNode().getElections().getLearner().queryForMaster(impl.getHelperSockets());
    } catch (RuntimeException closedOrElecting) {
      // asked again next time
    }
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
      ReplicationNode target = env.getGroup().getMember(nodeName);
      if (target == null) {
        throw new StorageException(nodeName + " is not a member of group " + membership.groupName());
      }
      GroupAdmin.requireFollowing(membership.groupName(), Set.of(new InetSocketAddress(membership.host(),
          membership.port())), RepInternal.getNonNullRepImpl(env).getChannelFactory(), target, membership.nodeName(),
          TARGET_ANSWER_TIMEOUT);
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
    // Through this member's own channel factory: the group's ports admit only guarded connections.
    GroupAdmin.deleteMember(membership.groupName(), Set.of(new InetSocketAddress(membership.host(), membership.port())),
        RepInternal.getNonNullRepImpl(env).getChannelFactory(), nodeName);
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

  @Override
  public java.util.Map<String, Long> memberLag() {
    ReplicatedEnvironment e = env;
    try {
      if (!e.getState().isMaster()) {
        return java.util.Map.of();
      }
      return java.util.Map.copyOf(e.getRepStats(new com.sleepycat.je.StatsConfig()).getReplicaVLSNLagMap());
    } catch (DatabaseException | IllegalStateException closedMeanwhile) {
      return java.util.Map.of();
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
  public void load(List<RowMutation> rows, Durability durability) {
    region.load(rows, durability);
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
  public LogSegmentSet checkpointedSegments() {
    return region.checkpointedSegments();
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
  public void flush() {
    region.flush();
  }

  @Override
  public io.basalt.storage.region.Compaction compact(boolean major) {
    return region.compact(major);
  }

  @Override
  public synchronized void close() {
    closed = true;
    region.close();
  }
}
