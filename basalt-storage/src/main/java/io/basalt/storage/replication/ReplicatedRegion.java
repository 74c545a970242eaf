package io.basalt.storage.replication;

import io.basalt.storage.region.Region;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A region store that is one member of a replica group. Only the primary takes writes (a secondary throws
 * {@link NotPrimaryException}); any member reads, a secondary's reads possibly behind the primary's.
 * Background maintenance runs on the primary and reaches the secondaries through the log.
 */
public interface ReplicatedRegion extends Region {
  GroupMembership membership();

  ReplicaRole role();

  /** The node name of the group's primary as this member knows it. */
  Optional<String> primary();

  /** The group's members as the group knows them (names and addresses), this one included. */
  List<GroupMember> members();

  /**
   * On the primary: hands the primary role to {@code nodeName}, a member that is up and caught up,
   * waiting at most {@code timeout}; writes in flight finish first or fail retriably.
   */
  void transferPrimary(String nodeName, Duration timeout);

  /**
   * Waits until this member holds everything its group's primary had committed when the call began (at
   * once on the primary), at most {@code timeout}. A member that joined empty counts as a copy only after
   * this: until then the group's acknowledgements may have counted other members only.
   */
  void awaitCaughtUp(Duration timeout);

  /**
   * Deletes {@code nodeName} from the group (asked of the group's primary through this member): the group
   * no longer counts it for elections or acknowledgements. The node must not be running (a member that is
   * down is fine), nor be the primary. Unlike JE's removal, a deleted name can join again later (a server
   * that gets a copy of the region back). Already deleted, or never a member: nothing to do.
   */
  void deleteMember(String nodeName);

  /**
   * On the primary, before a split: stops writes for good (writes in flight finish, later ones are refused
   * with {@link io.basalt.storage.error.RegionClosedException}, maintenance stops, closing writes nothing),
   * then commits a barrier that every member of the group must acknowledge. Returns where the primary's log
   * then ends (the barrier, or the entry JE writes shortly after it to record that the barrier is durable,
   * which this waits for): each member's log ends there once it has it. Throws
   * {@link io.basalt.storage.error.ReplicasUnavailableException} (writes resume) if a member does not
   * acknowledge within a few seconds.
   */
  long sealForSplit();

  /** Lifts {@link #sealForSplit}: the split was called off, the primary takes writes again. */
  void unseal();

  /**
   * The position (JE's VLSN) of the last entry this member's log holds: members of a sealed group must
   * all report the barrier's before they are cloned.
   */
  long lastLogPosition();

  /**
   * On the primary: how many log entries each other member that is connected still lacks, by node name (JE's
   * replica VLSN lag); empty on a secondary. A member that is down or still being filled is not connected.
   */
  java.util.Map<String, Long> memberLag();

  /**
   * Waits at most {@code timeout} until this member's log reaches {@code position} (a secondary applying
   * what the primary sent); returns where it ends then.
   */
  long awaitLogPosition(long position, Duration timeout);
}
