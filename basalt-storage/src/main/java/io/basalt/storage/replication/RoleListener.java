package io.basalt.storage.replication;

import java.util.Optional;

/** Told when a member's role changes (on a replication thread: keep it short, hand work off). */
@FunctionalInterface
public interface RoleListener {
  RoleListener NONE = (region, role, primary) -> { };

  /** {@code primary} is the node name of the group's primary as this member knows it, if any. */
  void roleChanged(ReplicatedRegion region, ReplicaRole role, Optional<String> primary);
}
