package io.basalt.storage.replication;

import java.time.Duration;

/**
 * How fast a replica group notices a silent primary and elects another (the JE settings every member runs
 * with), and what follows for a server whose process was paused (GC, SIGSTOP, a starved host): stopped for
 * {@link #SOONEST_ELECTION} or longer, it may wake up as a primary its group has already replaced.
 */
public final class ReplicaTimings {
  private ReplicaTimings() {}

  /** A primary's heartbeat to each secondary. */
  public static final Duration HEARTBEAT = Duration.ofMillis(500);

  /** A secondary that heard nothing from its primary this long leaves it and holds an election. */
  public static final Duration REPLICA_TIMEOUT = Duration.ofSeconds(2);

  /** A primary that heard nothing from a secondary this long stops feeding it. */
  public static final Duration FEEDER_TIMEOUT = Duration.ofSeconds(3);

  /**
   * A primary repeats its election's result this often, so that a member that missed it learns it: a primary
   * that was replaced while it was cut off or paused steps down at the latest one period after it is back.
   */
  public static final Duration RESULT_REBROADCAST = Duration.ofSeconds(2);

  /**
   * The soonest another member can be elected once the primary's process stops: its last heartbeat may have
   * gone out a heartbeat interval before.
   */
  public static final Duration SOONEST_ELECTION = REPLICA_TIMEOUT.minus(HEARTBEAT);
}
