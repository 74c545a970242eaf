package io.basalt.server.master;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;

/**
 * Where a new region's replica group goes: on the {@code factor} live servers holding the fewest members
 * (fewer if fewer servers are up: the region then runs degraded), with the founding member, which starts
 * as primary, on the chosen server that is primary for the fewest regions.
 */
final class ReplicaPlacement {
  private ReplicaPlacement() {}

  /**
   * @param members members (and unreplicated regions) per live server
   * @param primaries regions each live server is primary of
   * @return distinct servers, the founding member first
   */
  static List<ServerName> choose(Map<ServerName, Integer> members, Map<ServerName, Integer> primaries, int factor) {
    List<ServerName> byLoad = new ArrayList<>(members.keySet());
    byLoad.sort(Comparator.<ServerName>comparingInt(s -> members.getOrDefault(s, 0)).thenComparing(Comparator.naturalOrder()));
    List<ServerName> chosen = new ArrayList<>(byLoad.subList(0, Math.min(factor, byLoad.size())));
    chosen.stream().min(Comparator.<ServerName>comparingInt(s -> primaries.getOrDefault(s, 0))
        .thenComparingInt(chosen::indexOf)).ifPresent(founder -> {
          chosen.remove(founder);
          chosen.add(0, founder);
        });
    return chosen;
  }
}
