package io.basalt.storage.region;

import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import io.basalt.storage.segment.LogSegmentSet;
import java.nio.file.Path;

/**
 * Opens region stores of one process, all sharing one cache. Each region lives in its own directory.
 */
public interface StorageEngine extends AutoCloseable {
  /** Creates a region in an empty or missing directory. */
  Region create(Path dir, RegionDescriptor descriptor);

  /**
   * Opens an existing region as it was last closed (or crashed). A directory holding a copy of every
   * segment of a closed region (a clone, or a copy shipped by a move) opens as that region.
   */
  Region open(Path dir);

  /**
   * Makes {@code target} a copy of the closed region in {@code source} without copying its data: closed
   * segments are hard-linked (they are immutable), only the open tail segment is copied. Both directories
   * stay usable independently. Returns the bytes copied.
   */
  long cloneClosed(Path source, Path target);

  /**
   * Makes {@code target} the merged region of two adjacent closed regions, {@code a} and {@code b}, whose ranges
   * together are {@code merged}: a clone of the larger one (by log size on disk: hard links and its tail copied)
   * filled with the smaller one's records, which are copied (two JE logs cannot be spliced). Both sources are
   * left as they were. Returns what it cost.
   */
  MergeReport mergeClosed(Path a, Path b, Path target, KeyRange merged);

  /**
   * Every log segment of the closed region in {@code dir}: the files a copy needs to open as the same
   * region (a move's final pull after {@link Region#close()}). While the set is open this engine refuses to
   * open the directory, so the files stay as listed; callers must not race an open of the same directory
   * with this call. One set per directory at a time.
   */
  LogSegmentSet closedSegments(Path dir);

  /**
   * Opens a clone as the region of the narrower key range {@code range}; keys outside it are hidden at
   * once and removed in the background by {@link Region#maintain()}.
   */
  Region openRestricted(Path dir, KeyRange range);

  // Members of replica groups: one environment per member, as for a region alone, whose log its group's
  // primary feeds (see ReplicatedRegion).

  /** Founds a new region's replica group in an empty or missing directory; this member starts as primary. */
  ReplicatedRegion createGroup(Path dir, RegionDescriptor descriptor, GroupMembership membership, RoleListener listener);

  /**
   * Joins an existing group with an empty or missing directory, filled from a live member (all of the
   * group's log, copied) before it returns.
   */
  ReplicatedRegion joinGroup(Path dir, GroupMembership membership, RoleListener listener);

  /**
   * Opens this member from its directory and rejoins its group (catching up from the primary). Returns
   * even when the group has no primary now (too few members up): the member then serves stale reads.
   */
  ReplicatedRegion openMember(Path dir, GroupMembership membership, RoleListener listener);

  /**
   * {@link #openMember} as a member of a split's daughter: serves only {@code range} (inside its log's), at
   * once, before its log holds the daughter's narrower range; keys outside it are removed by the primary.
   */
  ReplicatedRegion openMember(Path dir, GroupMembership membership, RoleListener listener, KeyRange range);

  /**
   * Makes the closed clone in {@code dir} (a member's log cloned for a split's daughter) the only member of
   * a new group at {@code founder}'s address, keeping the group's name and log positions so that the other
   * members' clones join without copying. Done once per directory (a marker file records it); returns false
   * if it was done already. Open it with {@link #openMember} afterwards, then the other members.
   */
  boolean refoundGroup(Path dir, GroupMembership founder);

  /**
   * {@link #refoundGroup} for a merge of two replicated regions: {@code dir} is the founder's clone of the larger
   * region's member; before the founding is recorded, the records of the smaller region's closed member in {@code
   * smaller} (only read) are written into it through its new group's replicated environment, and its range becomes
   * {@code merged}. Returns the copy's cost, or null if it was done already. Open it with {@link #openMember}
   * afterwards, then the other members, which stream the copy from it.
   */
  MergeReport refoundMergedGroup(Path dir, GroupMembership founder, Path smaller, KeyRange merged);

  /** The bytes of a closed or open region's log files on disk (which of two regions to copy in a merge). */
  long logBytes(Path dir);

  /**
   * Makes the closed log in {@code dir} (a clone of another group's member, e.g. of a snapshot) the only member of
   * a NEW group: {@code founder}'s group name, a new UUID, its address. The log's data stays; its replication
   * history is cut, so it can never join, or be joined by, the group it was cloned from, and other members join it
   * empty (filled by copying its files). Done once per directory (a marker file records it); returns false if it
   * was done already. Open it with {@link #openMember} afterwards, then let the other members join.
   */
  boolean foundNewGroup(Path dir, GroupMembership founder);

  /** Cache, log and cleaner figures of all open regions (a few microseconds per region). */
  EngineStats stats();

  @Override
  void close();
}
