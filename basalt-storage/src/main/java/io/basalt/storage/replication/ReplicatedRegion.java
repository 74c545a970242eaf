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

  /** On the primary: removes a member from the group for good (it must not be running). */
  void removeMember(String nodeName);
}
