package io.basalt.server.master;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * Region-count balancing: the moves that leave every live server with the average number of regions,
 * rounded down or up, moving as few regions as possible. A pure function of the assignment, so it is tested
 * on its own; the master carries the moves out one at a time.
 */
public final class Balancer {
  private Balancer() {}

  public record Move(RegionInfo region, ServerName from, ServerName to) {}

  public static List<Move> plan(Map<ServerName, List<RegionInfo>> assignment) {
    int servers = assignment.size();
    if (servers < 2) {
      return List.of();
    }
    int total = assignment.values().stream().mapToInt(List::size).sum();
    int floor = total / servers;
    int ceilSlots = total % servers; // this many servers may keep floor + 1
    // Servers in order of load (then name, so plans are deterministic), each with a mutable region list.
    TreeMap<ServerName, List<RegionInfo>> load = new TreeMap<>();
    assignment.forEach((s, rs) -> {
      List<RegionInfo> sorted = new ArrayList<>(rs);
      sorted.sort(RegionInfo.COMPARATOR);
      load.put(s, sorted);
    });
    List<ServerName> byLoad = new ArrayList<>(load.keySet());
    byLoad.sort(Comparator.<ServerName>comparingInt(s -> load.get(s).size()).reversed().thenComparing(s -> s));
    // The most loaded servers keep the extra region where the total does not divide evenly.
    Map<ServerName, Integer> target = new TreeMap<>();
    for (int i = 0; i < byLoad.size(); i++) {
      target.put(byLoad.get(i), floor + (i < ceilSlots ? 1 : 0));
    }
    List<Move> moves = new ArrayList<>();
    List<ServerName> receivers = new ArrayList<>(byLoad);
    java.util.Collections.reverse(receivers);
    for (ServerName from : byLoad) {
      List<RegionInfo> regions = load.get(from);
      while (regions.size() > target.get(from)) {
        ServerName to = receivers.stream().filter(s -> load.get(s).size() < target.get(s)).findFirst().orElse(null);
        if (to == null) {
          return moves;
        }
        RegionInfo region = regions.remove(regions.size() - 1);
        load.get(to).add(region);
        moves.add(new Move(region, from, to));
      }
    }
    return moves;
  }
}
