package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/** The actions of a merge of two replicated regions ({@link GroupMergeProtocol}); each idempotent. */
public final class GroupMergeActions {
  private GroupMergeActions() {}

  /**
   * Master: a replication port for the merged region's member on each base member's server (asking the server),
   * none a port the catalog records on that machine. Returns {@link Result.MergedMembers} in the order of {@code
   * members}. Nothing is recorded: a failure changes nothing.
   */
  public record ChooseMergedPorts(RegionInfo base, List<Member> members, RegionInfo merged)
      implements Action.OfGroupMerge {
    public ChooseMergedPorts {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * A member's server: wait a few seconds at most for the member's log of {@code region} to reach {@code barrier}
   * (its sealed primary's end), note where it ends and close it; with {@code cloneInto} (a member of the base), clone
   * its log into that region's directory there (hard links and a copy of the tail; the directory appears only
   * complete). Returns the member's {@link Result.LogPosition} at its close. A member that is not open (its server
   * restarted) cannot tell its position: that fails.
   */
  public record CloseMemberForMerge(ServerName server, RegionInfo region, long barrier, RegionInfo cloneInto)
      implements Action.OfGroupMerge {
    @Override
    public Site site() {
      return Site.of(server);
    }

    public boolean clones() {
      return cloneInto != null;
    }
  }

  /**
   * The founder's server (the first of {@code members}): make its clone of the base the only member of a new group
   * named {@code group} at its new port, and write into it, through that replicated environment, the records of
   * {@code other}'s closed member there (its keys in the clone deleted first), with the merged range as its range.
   * Once; a repeat finds it done (a marker file written last).
   */
  public record FoundMergedGroup(RegionInfo merged, String group, List<Member> members, RegionInfo other)
      implements Action.OfGroupMerge {
    public FoundMergedGroup {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.of(members.get(0).server());
    }
  }

  /**
   * A merged member's server, the merged region not published yet: open its member from its clone in the group
   * {@code group} of {@code members} and answer once it holds everything the group's primary (the founder) had
   * committed by then, the other region's records included (already open: only the wait).
   */
  public record JoinMergedMember(ServerName server, RegionInfo merged, String group, List<Member> members)
      implements Action.OfGroupMerge {
    public JoinMergedMember {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * Master, in one atomic catalog update: both regions gone, the merged region OPEN with {@code members} and the
   * base's group name. From then on clients are sent to the merged region.
   */
  public record PublishGroupMerge(RegionInfo lower, RegionInfo upper, RegionInfo merged, String group,
      List<Member> members) implements Action.OfGroupMerge {
    public PublishGroupMerge {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * A member's server, undoing a replicated merge (after the catalog says both regions are OPEN again): close and
   * delete the merged region's directory there, then serve its member of {@code region} again (writes resume on a
   * sealed primary; a closed member reopens and rejoins {@code group} of {@code members}).
   */
  public record RollBackGroupMerge(ServerName server, RegionInfo region, RegionInfo merged, String group,
      List<Member> members) implements Action.OfGroupMerge {
    public RollBackGroupMerge {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.of(server);
    }
  }
}
