package io.basalt.server.metrics;

import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.master.Master;
import io.basalt.server.master.OperationHistory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A master's meters: whether it is active, live servers, tables, regions by server and state, and splits
 * and moves (counts, total durations and unavailability). {@code master} is null while standing by.
 */
public final class MasterMetrics {
  private final MeterRegistry registry;
  private final Supplier<Master> master;
  private final MultiGauge regions;
  private final Map<String, Timer> durations = new HashMap<>();
  private OperationHistory seenHistory;
  private OperationHistory.Operation newestSeen;

  private MasterMetrics(MeterRegistry registry, Supplier<Master> master) {
    this.registry = registry;
    this.master = master;
    this.regions = MultiGauge.builder("basalt.master.regions")
        .description("Regions in the region map by hosting server and state (HBase: regionCount per server)")
        .register(registry);
  }

  public static MasterMetrics bind(Metrics metrics, Supplier<Master> master) {
    MasterMetrics m = new MasterMetrics(metrics.registry(), master);
    MeterRegistry r = metrics.registry();
    Gauge.builder("basalt.master.active", master, s -> s.get() == null ? 0 : 1)
        .description("1 on the active master, 0 on a standby").register(r);
    Gauge.builder("basalt.master.servers.live", master, s -> s.get() == null ? 0 : s.get().servers().live().size())
        .description("Live region servers (HBase: numRegionServers)").register(r);
    Gauge.builder("basalt.master.tables", master, s -> s.get() == null ? 0 : s.get().catalog().tables().size())
        .description("Tables in the catalog").register(r);
    Gauge.builder("basalt.master.regions.degraded", master, s -> s.get() == null ? 0 : s.get().replicas().degradedRegions())
        .description("Open regions with fewer copies on live servers than their table's REGION_REPLICATION")
        .register(r);
    Gauge.builder("basalt.master.members.rebuilding", master, s -> s.get() == null ? 0 : s.get().replicas().membersToRebuild())
        .description("Region members due to be rebuilt on other servers (their server gone longer than "
            + "basalt.replication.rereplicate.after, or decommissioned, or never placed): re-replication still to do")
        .register(r);
    Gauge.builder("basalt.master.members.missing", master, s -> s.get() == null ? 0 : s.get().replicas().membersMissing())
        .description("Region members not serving: on servers that are down however briefly, or never placed")
        .register(r);
    Gauge.builder("basalt.master.servers.decommissioned", master,
            s -> s.get() == null ? 0 : s.get().servers().decommissioned().size())
        .description("Region servers decommissioned (Admin.decommissionRegionServers): they take no new regions")
        .register(r);
    FunctionCounter.builder("basalt.master.splits", master, s -> s.get() == null ? 0 : s.get().history().splitCount())
        .description("Splits finished by this master").register(r);
    FunctionCounter.builder("basalt.master.moves", master, s -> s.get() == null ? 0 : s.get().history().moveCount())
        .description("Moves finished by this master").register(r);
    metrics.beforeScrape(m::refresh);
    return m;
  }

  synchronized void refresh() {
    Master m = master.get();
    if (m == null) {
      regions.register(List.of(), true);
      return;
    }
    Map<Tags, Integer> counts = new HashMap<>();
    for (RegionRecord r : m.catalog().allRegions()) {
      Tags t = Tags.of("server", r.server() == null ? "none" : r.server().getServerName(), "state", r.state());
      counts.merge(t, 1, Integer::sum);
    }
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    counts.forEach((tags, n) -> rows.add(MultiGauge.Row.of(tags, n)));
    regions.register(rows, true);
    recordNewOperations(m.history());
  }

  /** Feeds operations finished since the last refresh into the duration timers (newest first in history). */
  private void recordNewOperations(OperationHistory history) {
    List<OperationHistory.Operation> recent = history.recent();
    if (history != seenHistory) {
      seenHistory = history;
      newestSeen = null;
    }
    List<OperationHistory.Operation> fresh = new ArrayList<>();
    for (OperationHistory.Operation op : recent) {
      if (op == newestSeen) {
        break;
      }
      fresh.add(op);
    }
    if (!recent.isEmpty()) {
      newestSeen = recent.get(0);
    }
    for (OperationHistory.Operation op : fresh) {
      timer("basalt.master.operation.duration", op, "Time of splits and moves, first phase to publish")
          .record(op.totalMillis(), TimeUnit.MILLISECONDS);
      timer("basalt.master.operation.unavailable", op, "Time a split or moved region refused requests")
          .record(op.unavailableMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private Timer timer(String name, OperationHistory.Operation op, String description) {
    return durations.computeIfAbsent(name + "/" + op.kind() + "/" + op.outcome(), k -> Timer.builder(name)
        .tags("kind", op.kind(), "outcome", op.outcome()).description(description)
        .serviceLevelObjectives(RpcMetrics.BUCKETS).register(registry));
  }
}
