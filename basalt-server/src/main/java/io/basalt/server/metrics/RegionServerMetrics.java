package io.basalt.server.metrics;

import io.basalt.server.regionserver.RegionServer;
import io.basalt.storage.region.EngineStats;
import io.basalt.storage.region.RegionStats;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.replication.ReplicaRole;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A region server's meters: regions served, per-region reads, writes, size and entries, and the storage
 * engine's cache, log and cleaner figures. Region and engine statistics are read once per scrape; a
 * region's meters appear when it opens and go when it closes (or moves, or splits).
 */
public final class RegionServerMetrics {
  private final MeterRegistry registry;
  private final RegionServer server;
  private final StorageEngine engine;
  private volatile Map<String, RegionStats> regions = Map.of();
  private volatile EngineStats engineStats;
  private final Map<String, List<Meter>> regionMeters = new HashMap<>();

  private RegionServerMetrics(MeterRegistry registry, RegionServer server, StorageEngine engine) {
    this.registry = registry;
    this.server = server;
    this.engine = engine;
    this.engineStats = engine.stats();
  }

  /** Registers the meters of {@code server} and its {@code engine}. */
  public static RegionServerMetrics bind(Metrics metrics, RegionServer server, StorageEngine engine) {
    RegionServerMetrics m = new RegionServerMetrics(metrics.registry(), server, engine);
    m.registerServerMeters();
    metrics.beforeScrape(m::refresh);
    m.refresh();
    return m;
  }

  private void registerServerMeters() {
    Gauge.builder("basalt.regions", this, m -> m.regions.size())
        .description("Regions this region server serves").register(registry);
    for (ReplicaRole role : ReplicaRole.values()) {
      Gauge.builder("basalt.replication.members", server, s -> s.members(role))
          .tags("role", role.name().toLowerCase(Locale.ROOT))
          .description("Members of replicated regions hosted here, by role (primary takes writes)").register(registry);
    }
    Gauge.builder("basalt.replication.member.lag.max", server, RegionServer::maxMemberLag)
        .description("Log entries the furthest-behind connected secondary of a primary here still lacks")
        .register(registry);
    Gauge.builder("basalt.storage.cache.bytes", this, m -> m.engineStats.cacheBytes()).baseUnit("bytes")
        .description("Bytes used in the shared B+-tree cache (HBase: blockCacheSize)").register(registry);
    Gauge.builder("basalt.storage.cache.limit", this, m -> m.engineStats.cacheLimitBytes()).baseUnit("bytes")
        .description("Configured size of the shared B+-tree cache (basalt.storage.cache.size)").register(registry);
    FunctionCounter.builder("basalt.storage.cache.fetches", this, m -> m.engineStats.cacheFetches())
        .description("B+-tree node fetches through the cache (HBase: blockCacheHitCount + blockCacheMissCount)")
        .register(registry);
    FunctionCounter.builder("basalt.storage.cache.misses", this, m -> m.engineStats.cacheMisses())
        .description("Fetches the cache could not serve (HBase: blockCacheMissCount)").register(registry);
    Gauge.builder("basalt.storage.cache.hit.ratio", this, m -> m.engineStats.cacheHitRatio())
        .description("Share of fetches served from the cache since start (HBase: blockCacheHitRatio)").register(registry);
    Gauge.builder("basalt.storage.cache.internal.nodes", this, m -> m.engineStats.upperInternalNodes())
        .tags("level", "upper").description("B+-tree internal nodes in the cache (HBase: staticIndexSize, as a count)")
        .register(registry);
    Gauge.builder("basalt.storage.cache.internal.nodes", this, m -> m.engineStats.bottomInternalNodes())
        .tags("level", "bottom").description("B+-tree internal nodes in the cache (HBase: staticIndexSize, as a count)")
        .register(registry);
    Gauge.builder("basalt.storage.log.size", this, m -> m.engineStats.logBytes()).baseUnit("bytes")
        .description("Bytes of all regions' log segments (HBase: storeFileSize + WAL size)").register(registry);
    Gauge.builder("basalt.storage.cleaner.backlog", this, m -> m.engineStats.cleanerBacklog()).baseUnit("files")
        .description("Log files waiting for the log cleaner (HBase: compactionQueueLength)").register(registry);
    FunctionCounter.builder("basalt.region.flushes", server, s -> s.compactions().flushes())
        .description("Region flushes asked for (Admin.flush): each forces the region's log to disk").register(registry);
    FunctionCounter.builder("basalt.region.compactions", server, s -> s.compactions().compactions())
        .description("Region compactions run (Admin.compact/majorCompact): JE cleaner, plus purge when major")
        .register(registry);
    FunctionCounter.builder("basalt.region.compaction.purged", server, s -> s.compactions().entriesRemoved())
        .description("Entries major compactions purged (deleted, expired or excess versions)").register(registry);
    FunctionCounter.builder("basalt.region.compaction.reclaimed", server, s -> s.compactions().bytesReclaimed())
        .baseUnit("bytes").description("Log bytes compactions reclaimed").register(registry);
    Gauge.builder("basalt.storage.file.deletion.backlog", this, m -> m.engineStats.fileDeletionBacklog())
        .baseUnit("files").description("Cleaned log files waiting to be deleted").register(registry);
  }

  /** Reads the statistics once and adds or removes per-region meters to match the regions served now. */
  synchronized void refresh() {
    Map<String, RegionStats> now = new HashMap<>();
    Map<String, RegionInfo> infos = new HashMap<>();
    for (Map.Entry<RegionInfo, RegionStats> e : server.regionStats().entrySet()) {
      now.put(e.getKey().getEncodedName(), e.getValue());
      infos.put(e.getKey().getEncodedName(), e.getKey());
    }
    regions = now;
    engineStats = engine.stats();
    for (String gone : new ArrayList<>(regionMeters.keySet())) {
      if (!now.containsKey(gone)) {
        regionMeters.remove(gone).forEach(registry::remove);
      }
    }
    for (Map.Entry<String, RegionInfo> e : infos.entrySet()) {
      if (!regionMeters.containsKey(e.getKey())) {
        regionMeters.put(e.getKey(), registerRegion(e.getKey(), e.getValue()));
      }
    }
  }

  private List<Meter> registerRegion(String encoded, RegionInfo info) {
    Tags tags = Tags.of("table", info.getTable().getNameAsString(), "region", encoded);
    List<Meter> meters = new ArrayList<>();
    meters.add(FunctionCounter.builder("basalt.region.reads", this, m -> m.stat(encoded, RegionStats::rowsRead))
        .tags(tags).description("Rows read from the region: Gets and rows scanned (HBase: readRequestCount)")
        .register(registry));
    meters.add(FunctionCounter.builder("basalt.region.writes", this, m -> m.stat(encoded, RegionStats::rowsWritten))
        .tags(tags).description("Row updates of the region (HBase: writeRequestCount)").register(registry));
    meters.add(Gauge.builder("basalt.region.log.size", this, m -> m.stat(encoded, RegionStats::logBytes))
        .tags(tags).baseUnit("bytes").description("Bytes of the region's log segments (HBase: storeFileSize)")
        .register(registry));
    meters.add(Gauge.builder("basalt.region.cells", this, m -> m.stat(encoded, RegionStats::cellCount))
        .tags(tags).description("Entries stored: cell versions and delete markers").register(registry));
    return meters;
  }

  private double stat(String encoded, java.util.function.ToLongFunction<RegionStats> f) {
    RegionStats s = regions.get(encoded);
    return s == null ? Double.NaN : f.applyAsLong(s);
  }

  /** The statistics of the last refresh, by encoded region name. */
  public Map<String, RegionStats> regionStats() {
    return regions;
  }

  /** The engine statistics of the last refresh. */
  public EngineStats engineStats() {
    return engineStats;
  }
}
