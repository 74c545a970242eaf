package io.basalt.storage.replication;

/** What a member of a replica group is now. */
public enum ReplicaRole {
  /** Elected by its group: takes writes, and its reads are the region's consistent ones. */
  PRIMARY,
  /** Follows the primary's log: serves reads that accept staleness (HBase's TIMELINE). */
  SECONDARY,
  /** Cannot reach a primary or hold an election (too few members up): stale reads only. */
  UNKNOWN,
  /** Closed or failed: serves nothing. */
  DETACHED
}
