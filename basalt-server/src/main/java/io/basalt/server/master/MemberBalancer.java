package io.basalt.server.master;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;

/**
 * Member-count balancing of replicated regions, a pure function of a {@link ReplicaView}: while the most
 * loaded server holds more than one member more than a server that has no copy of one of its regions, that
 * member is rebuilt there (add the new member, then remove the old one). Only regions whose members are all
 * live are moved (a group already short of a copy is re-replication's business), secondaries before
 * primaries (moving a secondary costs no election), and each region at most once per plan. Decommissioned
 * servers neither give nor take. Unreplicated regions are {@link Balancer}'s, counted apart, so the two
 * balancers never undo each other.
 */
final class MemberBalancer {
  private MemberBalancer() {}

  static List<ReplicaRepair.Replacement> plan(ReplicaView view) {
    Map<ServerName, Integer> load = view.memberLoad(true);
    List<RegionRecord> candidates = view.regions().stream()
        .filter(r -> view.eligible(r) && r.members().stream().allMatch(view::isLive)).toList();
    List<ReplicaRepair.Replacement> plan = new ArrayList<>();
    Set<String> planned = new HashSet<>();
    while (true) {
      ReplicaRepair.Replacement next = nextMove(view, load, candidates, planned);
      if (next == null) {
        return plan;
      }
      plan.add(next);
      planned.add(next.region().getEncodedName());
      load.merge(next.from(), -1, Integer::sum);
      load.merge(next.to(), 1, Integer::sum);
    }
  }

  /** The move off the busiest server that can shed a member, to the least loaded server that can take it. */
  private static ReplicaRepair.Replacement nextMove(ReplicaView view, Map<ServerName, Integer> load,
      List<RegionRecord> candidates, Set<String> planned) {
    List<ServerName> byLoad = new ArrayList<>(load.keySet());
    byLoad.sort(Comparator.<ServerName>comparingInt(load::get).reversed().thenComparing(Comparator.naturalOrder()));
    for (ServerName from : byLoad) {
      ReplicaRepair.Replacement best = null;
      int bestLoad = Integer.MAX_VALUE;
      boolean bestIsPrimary = true;
      for (RegionRecord r : candidates) {
        if (planned.contains(r.info().getEncodedName()) || r.memberOn(from).isEmpty()) {
          continue;
        }
        boolean primary = from.getAddress().equals(view.primaryOf().apply(r).getAddress());
        for (ServerName to : byLoad) {
          int toLoad = load.get(to);
          if (toLoad + 1 >= load.get(from) || r.members().stream().anyMatch((Member m) -> m.isOn(to))) {
            continue;
          }
          if (toLoad < bestLoad || (toLoad == bestLoad && bestIsPrimary && !primary)) {
            best = new ReplicaRepair.Replacement(r.info(), from, to);
            bestLoad = toLoad;
            bestIsPrimary = primary;
          }
        }
      }
      if (best != null) {
        return best;
      }
    }
    return null;
  }
}
