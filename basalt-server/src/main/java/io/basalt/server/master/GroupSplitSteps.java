package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.control.RegionServerControl;
import io.basalt.server.master.protocol.Action;
import io.basalt.server.master.protocol.Result;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.ipc.ServerNotRunningYetException;

/**
 * The driver's side of the actions only a split of a replicated region has ({@code GroupSplitProtocol}):
 * the catalog updates and the calls to each member's server.
 */
final class GroupSplitSteps {
  private final Catalog catalog;
  private final ServerManager servers;

  GroupSplitSteps(Catalog catalog, ServerManager servers) {
    this.catalog = catalog;
    this.servers = servers;
  }

  Result execute(Action a, TableDescriptor table) throws IOException {
    if (a instanceof Action.ChooseDaughterPorts c) {
      return choosePorts(c);
    } else if (a instanceof Action.SealGroup s) {
      return new Result.LogPosition(at(s.primary()).groupSplits().sealForSplit(s.parent()));
    } else if (a instanceof Action.CloseAndCloneMember c) {
      return new Result.LogPosition(at(c.server()).groupSplits().closeAndCloneMember(c.parent(), c.daughterA(),
          c.daughterB(), c.barrier()));
    } else if (a instanceof Action.FoundDaughterGroup f) {
      at(f.members().get(0).server()).groupSplits().foundDaughterGroup(f.daughter(), f.group(), f.members());
    } else if (a instanceof Action.PublishGroupSplit p) {
      publish(p);
    } else if (a instanceof Action.OpenDaughterMember o) {
      at(o.server()).openMember(o.daughter(), table, o.group(), o.members(), false);
    } else if (a instanceof Action.RollBackGroupSplit r) {
      at(r.server()).groupSplits().rollBackGroupSplit(r.parent(), table, r.daughterA(), r.daughterB(), r.group(),
          r.members());
    } else {
      throw new IllegalStateException("no driver for " + a);
    }
    return Result.DONE;
  }

  /** Each member's server hands out a port for each daughter, none that its machine's records hold. */
  private Result choosePorts(Action.ChooseDaughterPorts c) throws IOException {
    List<Member> a = new ArrayList<>();
    List<Member> b = new ArrayList<>();
    for (Member m : c.members()) {
      String host = m.server().getHostname();
      Set<Integer> taken = ReplicatedRegions.portsTakenOn(catalog, host);
      for (Member chosen : a) {
        if (chosen.server().getHostname().equals(host)) {
          taken.add(chosen.port());
        }
      }
      for (Member chosen : b) {
        if (chosen.server().getHostname().equals(host)) {
          taken.add(chosen.port());
        }
      }
      RegionServerControl rs = at(m.server());
      int portA = rs.replicationPort(c.daughterA(), taken);
      taken.add(portA);
      a.add(new Member(m.server(), portA));
      b.add(new Member(m.server(), rs.replicationPort(c.daughterB(), taken)));
    }
    return new Result.DaughterMembers(a, b);
  }

  /** The parent retired (keeping its members: their ports stay reserved), the daughters OPEN, in one update. */
  private void publish(Action.PublishGroupSplit p) throws IOException {
    RegionRecord parent = catalog.region(p.parent().getEncodedName()).filter(RegionRecord::replicated)
        .orElseThrow(() -> new IOException("the catalog lost the replicated parent "
            + p.parent().getRegionNameAsString()));
    RegionInfo retired = RegionInfoBuilder.newBuilder(p.parent()).setOffline(true).setSplit(true).build();
    catalog.putRegions(List.of(
        new RegionRecord(retired, parent.server(), RegionRecord.SPLIT, p.daughterA(), p.daughterB(), parent.members(),
            parent.inheritedGroup()),
        RegionRecord.daughterOf(parent, p.daughterA(), RegionRecord.OPEN, p.membersA()),
        RegionRecord.daughterOf(parent, p.daughterB(), RegionRecord.OPEN, p.membersB())));
  }

  private RegionServerControl at(ServerName recorded) throws IOException {
    ServerName live = servers.liveAt(recorded).orElseThrow(() ->
        new ServerNotRunningYetException("region server " + recorded.getAddress() + " is not online"));
    return servers.control(live);
  }
}
