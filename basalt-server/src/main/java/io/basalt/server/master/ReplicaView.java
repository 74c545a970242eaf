package io.basalt.server.master;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.net.Address;

/**
 * What the replica planners ({@link ReplicaRepair}, {@link MemberBalancer}) decide from, captured at one
 * moment so that they stay pure functions: the catalog's regions, the copies each enabled table asks for
 * (a table absent from {@code factors} is left alone), the live servers, since when each missing server
 * has been gone, the decommissioned servers (true: offload them), the regions transactions in flight
 * hold, the current primaries, and the time.
 */
record ReplicaView(Collection<RegionRecord> regions, Map<TableName, Integer> factors, List<ServerName> live,
    Map<Address, Long> downSince, Map<Address, Boolean> decommissioned, Set<String> held,
    Function<RegionRecord, ServerName> primaryOf, long now) {

  /** The live server at {@code server}'s address. */
  Optional<ServerName> liveAt(ServerName server) {
    return live.stream().filter(s -> s.getAddress().equals(server.getAddress())).findFirst();
  }

  boolean isLive(Member m) {
    return liveAt(m.server()).isPresent();
  }

  /** Live servers that may take new members. */
  List<ServerName> placeable() {
    return live.stream().filter(s -> !decommissioned.containsKey(s.getAddress())).toList();
  }

  boolean offloading(ServerName server) {
    return decommissioned.getOrDefault(server.getAddress(), false);
  }

  /** Whether this region is the planners' to change: an open replica group of an enabled table, not held. */
  boolean eligible(RegionRecord r) {
    return r.replicated() && RegionRecord.OPEN.equals(r.state()) && factors.containsKey(r.info().getTable())
        && !held.contains(r.info().getEncodedName());
  }

  /**
   * Members per placeable server, from {@code replicatedOnly} regions' members alone or also counting each
   * unreplicated region as one member where it is (how new regions are placed).
   */
  Map<ServerName, Integer> memberLoad(boolean replicatedOnly) {
    Map<ServerName, Integer> load = new HashMap<>();
    placeable().forEach(s -> load.put(s, 0));
    for (RegionRecord r : regions) {
      if (RegionRecord.SPLIT.equals(r.state()) || (replicatedOnly && !r.replicated())) {
        continue;
      }
      List<ServerName> on = r.replicated() ? r.members().stream().map(Member::server).toList()
          : r.server() == null ? List.of() : List.of(r.server());
      for (ServerName s : on) {
        liveAt(s).filter(load::containsKey).ifPresent(l -> load.merge(l, 1, Integer::sum));
      }
    }
    return load;
  }
}
