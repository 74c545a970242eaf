package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.control.RegionServerControl;
import io.basalt.server.master.protocol.Action;
import io.basalt.server.master.protocol.GroupMergeActions;
import io.basalt.server.master.protocol.Result;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.ipc.ServerNotRunningYetException;

/**
 * The driver's side of the actions only a merge of replicated regions has ({@code GroupMergeProtocol}): the catalog
 * updates and the calls to each member's server.
 */
final class GroupMergeSteps {
  private final Catalog catalog;
  private final ServerManager servers;

  GroupMergeSteps(Catalog catalog, ServerManager servers) {
    this.catalog = catalog;
    this.servers = servers;
  }

  /** Runs {@code a}; returns its result, and adds the bytes the founder copied to {@code copied}. */
  Result execute(Action.OfGroupMerge a, TableDescriptor table, long[] copied) throws IOException {
    if (a instanceof GroupMergeActions.ChooseMergedPorts c) {
      return choosePorts(c);
    } else if (a instanceof GroupMergeActions.CloseMemberForMerge c) {
      return new Result.LogPosition(at(c.server()).groupMerges().closeMemberForMerge(c.region(), c.barrier(),
          c.cloneInto()));
    } else if (a instanceof GroupMergeActions.FoundMergedGroup f) {
      copied[0] += at(f.members().get(0).server()).groupMerges().foundMergedGroup(f.merged(), f.group(), f.members(),
          f.other());
    } else if (a instanceof GroupMergeActions.JoinMergedMember j) {
      at(j.server()).joinMember(j.merged(), table, j.group(), j.members());
    } else if (a instanceof GroupMergeActions.PublishGroupMerge p) {
      // One ZooKeeper transaction: no reader sees the merged region beside either old one, nor neither.
      catalog.replaceRegions(List.of(new RegionRecord(p.merged(), p.members().get(0).server(), RegionRecord.OPEN, null,
          null, p.members(), p.group())), List.of(p.lower(), p.upper()));
    } else if (a instanceof GroupMergeActions.RollBackGroupMerge r) {
      // A split's undoing with the merged region as both daughters: drop it, serve the old member again.
      at(r.server()).groupSplits().rollBackGroupSplit(r.region(), table, r.merged(), r.merged(), r.group(),
          r.members());
    } else {
      throw new IllegalStateException("no driver for " + a);
    }
    return Result.DONE;
  }

  /** Each base member's server hands out a port for the merged member, none that its machine's records hold. */
  private Result choosePorts(GroupMergeActions.ChooseMergedPorts c) throws IOException {
    List<Member> chosen = new ArrayList<>();
    for (Member m : c.members()) {
      Set<Integer> taken = ReplicatedRegions.portsTakenOn(catalog, m.server().getHostname());
      chosen.stream().filter(o -> o.server().getHostname().equals(m.server().getHostname()))
          .forEach(o -> taken.add(o.port()));
      chosen.add(new Member(m.server(), at(m.server()).replicationPort(c.merged(), taken)));
    }
    return new Result.MergedMembers(chosen);
  }

  private RegionServerControl at(ServerName recorded) throws IOException {
    ServerName live = servers.liveAt(recorded).orElseThrow(() ->
        new ServerNotRunningYetException("region server " + recorded.getAddress() + " is not online"));
    return servers.control(live);
  }
}
