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
}
