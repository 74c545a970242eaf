package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.PendingDrops;
import io.basalt.server.catalog.RegionRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A region server that comes back after its members were rebuilt elsewhere still has their directories: they
 * are dropped when it registers, so that its disk holds only what the catalog says it holds. Only the
 * copies of replicated regions the catalog knows and no longer places on that server go: never a directory
 * the catalog lists for it, one a transaction in flight names (it may be a copy being made), an
 * unreplicated region's (the master finds those by their directories), or one the catalog does not know
 * (a lost catalog must never empty the disks), except those {@link PendingDrops} names: what a replicated
 * split left on a server that was down when it finished or was undone.
 */
final class LeftoverMembers {
  private static final Logger LOG = LoggerFactory.getLogger(LeftoverMembers.class);

  private final Catalog catalog;
  private final ServerManager servers;
  private final InFlight inFlight;
  private final PendingDrops pendingDrops;

  LeftoverMembers(Catalog catalog, ServerManager servers, InFlight inFlight, PendingDrops pendingDrops) {
    this.catalog = catalog;
    this.servers = servers;
    this.inFlight = inFlight;
    this.pendingDrops = pendingDrops;
  }

  /** The regions whose directories on {@code server} are leftovers, given what it stores. */
  static List<RegionInfo> leftovers(ServerName server, Collection<String> stored, Map<String, RegionRecord> regions,
      Set<String> held) {
    List<RegionInfo> out = new ArrayList<>();
    for (String encoded : stored) {
      RegionRecord r = regions.get(encoded);
      if (r == null || held.contains(encoded) || !r.replicated() || r.memberOn(server).isPresent()
          || !(RegionRecord.OPEN.equals(r.state()) || RegionRecord.CLOSED.equals(r.state()))) {
        continue;
      }
      out.add(r.info());
    }
    return out;
  }

  /** Drops the leftovers on a live server; what cannot be read or dropped now waits for its next registration. */
  void clean(ServerName server) {
    try {
      Set<String> held = inFlight.held();
      List<String> stored = servers.control(server).storedRegions();
      Map<String, RegionRecord> regions = new java.util.HashMap<>();
      for (String encoded : stored) {
        Optional<RegionRecord> r = catalog.region(encoded);
        r.ifPresent(record -> regions.put(encoded, record));
      }
      for (RegionInfo leftover : leftovers(server, stored, regions, held)) {
        LOG.info("dropping the leftover copy of {} on {}: its members are now on other servers",
            leftover.getRegionNameAsString(), server);
        servers.control(server).dropRegion(leftover);
      }
      for (RegionInfo pending : pendingDrops.of(server)) {
        if (stored.contains(pending.getEncodedName())) {
          LOG.info("dropping {} on {}: a replicated split finished or was undone while the server was down",
              pending.getRegionNameAsString(), server);
          servers.control(server).dropRegion(pending);
        }
        pendingDrops.done(server, pending);
      }
    } catch (IOException e) {
      LOG.warn("cannot clean the leftover region copies of {} now: {}", server, e.getMessage());
    }
  }
}
