package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Takes {@link ReplicaView}s of the master's state for the replica planners, and runs them. */
final class ReplicaViews {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaViews.class);

  private final Catalog catalog;
  private final ServerManager servers;
  private final ReplicatedRegions replicas;
  private final InFlight inFlight;

  ReplicaViews(Catalog catalog, ServerManager servers, ReplicatedRegions replicas, InFlight inFlight) {
    this.catalog = catalog;
    this.servers = servers;
    this.replicas = replicas;
    this.inFlight = inFlight;
  }

  /** Now; fails while the transactions in flight cannot be read (nothing may be planned blind). */
  ReplicaView view() throws IOException {
    Map<TableName, Integer> factors = new HashMap<>();
    for (TableDescriptor t : catalog.tables()) {
      if (catalog.state(t.getTableName()).orElse(TableState.State.ENABLED) == TableState.State.ENABLED) {
        factors.put(t.getTableName(), replicas.factor(t));
      }
    }
    List<RegionRecord> regions = catalog.allRegions();
    for (RegionRecord r : regions) {
      r.members().stream().map(Member::server).forEach(servers::noticeMissing);
    }
    return new ReplicaView(regions, factors, servers.live(), servers.downSince(), servers.decommissioned(),
        inFlight.held(), replicas::primaryOf, servers.now());
  }

  ReplicaRepair.Plan repairPlan(long rereplicateAfterMillis) throws IOException {
    return ReplicaRepair.plan(view(), rereplicateAfterMillis);
  }

  /** Member moves that even out members per server; none while the transactions cannot be read. */
  List<ReplicaRepair.Replacement> memberBalancePlan() {
    try {
      return MemberBalancer.plan(view());
    } catch (IOException e) {
      LOG.warn("no member balancing while the transactions in flight cannot be read: {}", e.getMessage());
      return List.of();
    }
  }
}
