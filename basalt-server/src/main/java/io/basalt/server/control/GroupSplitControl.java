package io.basalt.server.control;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * A region server's part in splitting a replicated region ({@code GroupSplitProtocol}): each call is about
 * this server's member of the region, and is idempotent as the protocol's actions must be.
 */
public interface GroupSplitControl {
  /**
   * On the primary's server: stops the parent's writes for good and commits a barrier every member must
   * acknowledge. Returns the barrier's log position. Fails (writes resume) if this member is not the
   * primary or a member does not acknowledge.
   */
  long sealForSplit(RegionInfo parent) throws IOException;

  /**
   * Waits (briefly) for this member's log to reach {@code barrier}, notes where it ends, closes it and clones
   * its log into both daughters' directories here (hard links and a copy of the tail). Returns that log
   * position; fails if the member is not open here.
   */
  long closeAndCloneMember(RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB, long barrier)
      throws IOException;

  /**
   * On the daughter's founder (the first of {@code members}): makes the clone here the only member of a new
   * group named {@code group} at its new port; a repeat finds it done.
   */
  void foundDaughterGroup(RegionInfo daughter, String group, List<Member> members) throws IOException;

  /**
   * Undoes a replicated split here: the daughters' directories deleted, this member of the parent served
   * again (writes resume on a sealed primary; a closed member reopens and rejoins {@code group}).
   */
  void rollBackGroupSplit(RegionInfo parent, TableDescriptor table, RegionInfo daughterA, RegionInfo daughterB,
      String group, List<Member> members) throws IOException;
}
