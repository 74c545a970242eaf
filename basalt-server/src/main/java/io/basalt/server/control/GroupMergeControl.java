package io.basalt.server.control;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A region server's part in merging two replicated regions ({@code GroupMergeProtocol}): each call is about this
 * server's members, and is idempotent as the protocol's actions must be. Sealing, opening, joining and undoing use
 * the calls a replicated split uses ({@link GroupSplitControl}, {@link RegionServerControl#joinMember}).
 */
public interface GroupMergeControl {
  /** The bytes of this server's copy of the region's log (which of two regions a merge copies). */
  long logBytes(RegionInfo region) throws IOException;

  /**
   * Waits (briefly) for this member's log of {@code region} to reach {@code barrier}, notes where it ends and closes
   * it; with {@code cloneInto} not null, clones its log into that region's directory here (hard links and a copy of
   * the tail; a directory there already is kept). Returns the log position; fails if the member is not open here.
   */
  long closeMemberForMerge(RegionInfo region, long barrier, RegionInfo cloneInto) throws IOException;

  /**
   * On the merged region's founder (the first of {@code members}): makes its clone here the only member of a new
   * group named {@code group} at its new port and writes {@code other}'s records (its closed member here) into it
   * through that group; a repeat finds it done. Returns the bytes copied (0 when done before).
   */
  long foundMergedGroup(RegionInfo merged, String group, List<Member> members, RegionInfo other) throws IOException;
}
