package io.basalt.server.status;

import io.basalt.server.metrics.RegionServerMetrics;
import io.basalt.server.regionserver.RegionServer;
import io.basalt.storage.region.EngineStats;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/** A region server's page: storage engine, the regions it serves with their load, and its RPC calls. */
final class RegionServerPage {
  private final RegionServer server;
  private final RegionServerMetrics metrics;
  private final RegionRates rates;
  private final MeterRegistry registry;
  private final List<Html.Link> nav;

  RegionServerPage(RegionServer server, RegionServerMetrics metrics, RegionRates rates, MeterRegistry registry,
      List<Html.Link> nav) {
    this.server = server;
    this.metrics = metrics;
    this.rates = rates;
    this.registry = registry;
    this.nav = nav;
  }

  InfoServer.Response render(Map<String, String> query) {
    Html h = new Html("Region server " + server.serverName().getServerName(), nav);
    EngineStats e = metrics.engineStats();
    Map<String, RegionLoad> loads = rates.latest();
    Runtime rt = Runtime.getRuntime();
    h.facts("Regions", e.openRegions(),
        "Cache", Html.bytes(e.cacheBytes()) + " of " + Html.bytes(e.cacheLimitBytes()),
        "Cache hit ratio", String.format(Locale.ROOT, "%.2f%%", 100 * e.cacheHitRatio()),
        "Log size", Html.bytes(e.logBytes()),
        "Cleaner backlog", e.cleanerBacklog() + " files",
        "Heap", Html.bytes(rt.totalMemory() - rt.freeMemory()) + " of " + Html.bytes(rt.maxMemory()),
        "Up for", (ManagementFactory.getRuntimeMXBean().getUptime() / 1000) + " s");

    h.h2("Regions");
    List<RegionInfo> online = new ArrayList<>(server.onlineRegions());
    online.sort(RegionInfo.COMPARATOR);
    List<List<Object>> rows = new ArrayList<>();
    for (RegionInfo r : online) {
      RegionLoad l = loads.get(r.getEncodedName());
      String table = r.getTable().getNameAsString();
      rows.add(List.of(new Html.Link(table, ClusterPages.tableHref(table)),
          ClusterPages.key(Bytes.toStringBinary(r.getStartKey()), "(start)"),
          ClusterPages.key(Bytes.toStringBinary(r.getEndKey()), "(end)"),
          Html.bytes(l == null ? -1 : l.logBytes()), Html.count(l == null ? -1 : l.cells()),
          Html.rate(l == null ? Double.NaN : l.readsPerSecond()), Html.rate(l == null ? Double.NaN : l.writesPerSecond()),
          new Html.Code(r.getEncodedName())));
    }
    h.table("regions", List.of("Table", "Start key", "End key", "Size", "Entries", "Reads", "Writes", "Region"), rows);

    h.h2("RPC calls");
    List<Timer> timers = new ArrayList<>(registry.find("basalt.rpc.calls").tag("role", "regionserver").timers());
    timers.sort(Comparator.comparing((Timer t) -> t.getId().getTag("method")).thenComparing(t -> t.getId().getTag("outcome")));
    rows = new ArrayList<>();
    for (Timer t : timers) {
      rows.add(List.of(t.getId().getTag("service") + "." + t.getId().getTag("method"), t.getId().getTag("outcome"),
          t.count(), String.format(Locale.ROOT, "%.2f ms", t.mean(TimeUnit.MILLISECONDS)),
          String.format(Locale.ROOT, "%.2f ms", t.max(TimeUnit.MILLISECONDS))));
    }
    h.table("rpc", List.of("Method", "Outcome", "Calls", "Mean", "Max (recent)"), rows);
    return InfoServer.Response.html(200, h.finish());
  }
}
