package io.basalt.storage.je;

import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.rep.InsufficientLogException;
import com.sleepycat.je.rep.NetworkRestore;
import com.sleepycat.je.rep.NetworkRestoreConfig;
import com.sleepycat.je.rep.NoConsistencyRequiredPolicy;
import com.sleepycat.je.rep.RepInternal;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import com.sleepycat.je.rep.ReplicationConfig;
import io.basalt.storage.replication.ChannelGuard;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicaTimings;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a region's environment as a member of its replica group (JE HA's {@link ReplicatedEnvironment}):
 * the group is named after the region, the member after its server, and it listens on a port of its own.
 * A member whose log is too far behind the group's (or empty, on a new or wiped disk) is filled by copying
 * a live member's log files over the network (JE's network restore) before it opens.
 */
final class ReplicaEnvironments {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaEnvironments.class);

  /** See {@link #shortenCommitFreeze}. */
  private static final long COMMIT_FREEZE_MILLIS = 1_000;
  /** JE's write queue holds writes while an fsync runs; 1 MB per member adds up with hundreds of members. */
  private static final int MEMBER_WRITE_QUEUE_BYTES = 64 << 10;

  /** JE's internal parameters ({@code RepParams}) of {@link #openReset}. */
  private static final String RESET_REP_GROUP = "je.rep.resetRepGroup";
  private static final String RESET_REP_GROUP_RETAIN_UUID = "je.rep.resetRepGroupRetainUUID";

  private ReplicaEnvironments() {}

  /**
   * {@code founder}: the first member of a new group, which creates it (its helpers are itself only).
   * {@code waitForPrimary}: block until the member has joined a primary and caught up (a member that is
   * to be filled from the group); otherwise it may open before its group has a primary and serve stale
   * reads meanwhile.
   */
  static ReplicatedEnvironment open(Path dir, EnvironmentConfig env, GroupMembership m, boolean founder,
      boolean waitForPrimary, ChannelGuard guard) {
    ReplicationConfig rc = config(m, founder, waitForPrimary, guard);
    // Per member, not shared: JE keeps a write queue of this size per environment (1 MB by default).
    env.setConfigParam(EnvironmentConfig.LOG_WRITE_QUEUE_SIZE, Integer.toString(MEMBER_WRITE_QUEUE_BYTES));
    ReplicatedEnvironment opened;
    try {
      opened = new ReplicatedEnvironment(dir.toFile(), rc, env);
    } catch (InsufficientLogException missing) {
      long start = System.nanoTime();
      LOG.info("{}: copying the log of a live member of group {} (network restore)", m.nodeName(), m.groupName());
      new NetworkRestore().execute(missing, new NetworkRestoreConfig().setRetainLogFiles(false));
      LOG.info("{}: network restore of group {} took {} ms", m.nodeName(), m.groupName(),
          (System.nanoTime() - start) / 1_000_000);
      opened = new ReplicatedEnvironment(dir.toFile(), rc, env);
    }
    shortenCommitFreeze(opened, m);
    return opened;
  }

  /**
   * Opens a member's clone alone in a group of its own, at its address (see {@link GroupRefounding}), with
   * JE's internal reset of the group that keeps its UUID and log positions (the {@code DbResetRepGroup}
   * utility's reset, which would otherwise start the group's positions afresh).
   */
  static ReplicatedEnvironment openReset(Path dir, EnvironmentConfig env, GroupMembership m, ChannelGuard guard) {
    return openReset(dir, env, m, guard, true);
  }

  /**
   * As {@link #openReset(Path, EnvironmentConfig, GroupMembership, ChannelGuard)}; without {@code retainUUID} the
   * group is a new one (the configured name, a new UUID) and JE discards the log's old replication positions, so
   * other members can join it only by copying its files (network restore). See {@link NewGroupFounding}.
   */
  static ReplicatedEnvironment openReset(Path dir, EnvironmentConfig env, GroupMembership m, ChannelGuard guard,
      boolean retainUUID) {
    ReplicationConfig rc = config(m, true, true, guard);
    rc.setConfigParam(RESET_REP_GROUP, "true");
    rc.setConfigParam(RESET_REP_GROUP_RETAIN_UUID, Boolean.toString(retainUUID));
    env.setConfigParam(EnvironmentConfig.LOG_WRITE_QUEUE_SIZE, Integer.toString(MEMBER_WRITE_QUEUE_BYTES));
    return new ReplicatedEnvironment(dir.toFile(), rc, env);
  }

  /**
   * JE freezes a secondary's replay while it votes in an election, so that the log position it promised
   * stays true. When two members propose at once, the one that loses can stay frozen for JE's fixed 5 s
   * after the winner is known, and every write of the group waits for it (measured: about one failover in
   * five, writers stalled 5-9 s). JE has no setting for this; its latch takes a shorter timeout, still far
   * longer than an election takes here (tens of milliseconds).
   */
  private static void shortenCommitFreeze(ReplicatedEnvironment env, GroupMembership m) {
    try {
      RepInternal.getNonNullRepImpl(env).getRepNode().getVLSNFreezeLatch().setTimeOut(COMMIT_FREEZE_MILLIS);
    } catch (RuntimeException | LinkageError e) {
      LOG.warn("{}: cannot shorten JE's commit freeze after elections ({}); failovers may stall writes up to 5 s",
          m.nodeName(), e.toString());
    }
  }

  private static ReplicationConfig config(GroupMembership m, boolean founder, boolean waitForPrimary,
      ChannelGuard guard) {
    ReplicationConfig rc = new ReplicationConfig(m.groupName(), m.nodeName(), m.address());
    // Replication ports accept TCP from anyone: every connection proves itself first (cluster membership).
    rc.setRepNetConfig(GuardedChannelFactory.networkConfig(guard));
    rc.setHelperHosts(founder || m.helpers().isEmpty() ? m.address() : String.join(",", m.helpers()));
    // Secondaries answer TIMELINE reads with what they have: HBase's contract for them.
    rc.setConsistencyPolicy(NoConsistencyRequiredPolicy.NO_CONSISTENCY);
    if (!waitForPrimary) {
      // Open (for stale reads) even when the group cannot elect a primary; it keeps trying in the background.
      rc.setConfigParam(ReplicationConfig.ENV_UNKNOWN_STATE_TIMEOUT, "2 s");
    }
    // A primary cut off with commits it could not get acknowledged rolls them back when it rejoins: they
    // were never acknowledged to a client, and a batch may hold hundreds.
    rc.setConfigParam(ReplicationConfig.TXN_ROLLBACK_LIMIT, Integer.toString(Integer.MAX_VALUE));
    // Fail a write fast (retriable) when too few members are up, rather than after JE's 10 s default.
    rc.setConfigParam(ReplicationConfig.INSUFFICIENT_REPLICAS_TIMEOUT, "2 s");
    rc.setConfigParam(ReplicationConfig.REPLICA_ACK_TIMEOUT, "2 s");
    // A member cut off (not dead: its connections stay open) is noticed within a few seconds. A secondary
    // notices its primary gone REPLICA_TIMEOUT plus up to 2 s after the cut (JE checks channels on a 1 s tick,
    // and its replay thread sees the exit on its next 1 s poll): at 3 s a cut-off primary was replaced 4.5 s
    // after the cut (PartitionTest), at 2 s 3.5 s. Four missed heartbeats.
    rc.setConfigParam(ReplicationConfig.FEEDER_TIMEOUT, millis(ReplicaTimings.FEEDER_TIMEOUT));
    rc.setConfigParam(ReplicationConfig.REPLICA_TIMEOUT, millis(ReplicaTimings.REPLICA_TIMEOUT));
    rc.setConfigParam("je.rep.heartbeatInterval", Long.toString(ReplicaTimings.HEARTBEAT.toMillis()));
    // A primary records in its log that its last commit became durable (an empty transaction) once the position
    // has been stable for two heartbeats, counted in ticks of its feeder manager's idle poll (JE: 1 s, so 2-3 s).
    // A replicated split waits for that entry with writes stopped: at the smallest tick it comes 1 s after.
    rc.setConfigParam("je.rep.feederManagerPollTimeout", "100 ms");
    // An election must not wait JE's default 10 s per round on a member that accepts connections but does
    // not answer (a paused process): elections exchange a few small messages.
    rc.setConfigParam("je.rep.electionsOpenTimeout", "500 ms");
    rc.setConfigParam("je.rep.electionsReadTimeout", "500 ms");
    // A primary that was cut off learns within seconds that another was elected (JE's default: a minute).
    rc.setConfigParam(ReplicationConfig.ELECTIONS_REBROADCAST_PERIOD, millis(ReplicaTimings.RESULT_REBROADCAST));
    // A member that joins waits at most this long for its group (JE's default is 10 hours).
    rc.setConfigParam(ReplicationConfig.ENV_SETUP_TIMEOUT, "10 min");
    return rc;
  }

  private static String millis(Duration d) {
    return d.toMillis() + " ms";
  }
}
