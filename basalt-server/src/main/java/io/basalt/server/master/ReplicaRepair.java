package io.basalt.server.master;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * Re-replication as a pure function of a {@link ReplicaView}: which members to rebuild elsewhere now, so that
 * every region gets back the copies its table asks for without an operator.
 * <ul>
 *   <li>a member on a server gone for at least {@code rereplicateAfterMillis} is replaced;
 *   <li>a member on a server decommissioned with offload is replaced at once (its server may still be up:
 *       the replacement adds the new member before it removes the old one);
 *   <li>a region with fewer members than its table's factor (placed while too few servers were up) gains
 *       members.
 * </ul>
 * Each new member goes to the least loaded live, not decommissioned server holding no copy of the region
 * (as {@link ReplicaPlacement} places new regions). Regions with the fewest live members come first. The
 * unreplicated regions of offloaded live servers are listed to be moved away. A region held by a
 * transaction in flight is never touched.
 */
final class ReplicaRepair {
  private ReplicaRepair() {}

  /** Replace the member on {@code from} (null: add one) with a new one on {@code to} (null: only remove). */
  record Replacement(RegionInfo region, ServerName from, ServerName to) {}

  /**
   * @param replacements what to do now, most urgent first
   * @param evacuations unreplicated regions to move off offloaded servers
   * @param unplaceable members due for rebuilding that have no server to go to now
   * @param missing members not serving now: on servers that are down (however briefly) or never placed
   */
  record Plan(List<Replacement> replacements, List<RegionInfo> evacuations, int unplaceable, int missing) {
    /** Members that are due for rebuilding, placed or not ({@code basalt status}'s "to rebuild"). */
    int due() {
      return replacements.size() + unplaceable;
    }
  }

  static Plan plan(ReplicaView view, long rereplicateAfterMillis) {
    Map<ServerName, Integer> load = view.memberLoad(false);
    List<RegionRecord> regions = new ArrayList<>(view.regions().stream().filter(view::eligible).toList());
    regions.sort(Comparator.<RegionRecord>comparingLong(r -> r.members().stream().filter(view::isLive).count())
        .thenComparing(r -> r.info().getEncodedName()));
    List<Replacement> replacements = new ArrayList<>();
    int unplaceable = 0;
    int missing = 0;
    for (RegionRecord r : regions) {
      int factor = view.factors().get(r.info().getTable());
      List<ServerName> due = new ArrayList<>();
      for (Member m : r.members()) {
        boolean live = view.isLive(m);
        missing += live ? 0 : 1;
        Long gone = live ? null : view.downSince().get(m.server().getAddress());
        if (view.offloading(m.server()) || (gone != null && view.now() - gone >= rereplicateAfterMillis)) {
          due.add(m.server());
        }
      }
      for (int i = r.members().size(); i < factor; i++) {
        due.add(null);
        missing++;
      }
      Set<ServerName> taken = new HashSet<>();
      for (ServerName from : due) {
        Optional<ServerName> to = target(view, r, load, taken);
        if (to.isEmpty()) {
          unplaceable++;
          continue;
        }
        taken.add(to.get());
        load.merge(to.get(), 1, Integer::sum);
        replacements.add(new Replacement(r.info(), from, to.get()));
      }
    }
    List<RegionInfo> evacuations = view.regions().stream()
        .filter(r -> !r.replicated() && RegionRecord.OPEN.equals(r.state()) && r.server() != null
            && view.offloading(r.server()) && view.liveAt(r.server()).isPresent()
            && !view.held().contains(r.info().getEncodedName()))
        .map(RegionRecord::info).sorted(RegionInfo.COMPARATOR).toList();
    return new Plan(replacements, evacuations, unplaceable, missing);
  }

  /** The least loaded placeable server with no copy of {@code r} and none planned for it. */
  private static Optional<ServerName> target(ReplicaView view, RegionRecord r, Map<ServerName, Integer> load,
      Set<ServerName> taken) {
    return load.keySet().stream()
        .filter(s -> r.memberOn(s).isEmpty() && !taken.contains(s))
        .min(Comparator.<ServerName>comparingInt(load::get).thenComparing(Comparator.naturalOrder()));
  }
}
