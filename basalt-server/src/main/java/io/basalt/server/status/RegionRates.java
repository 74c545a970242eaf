package io.basalt.server.status;

import io.basalt.storage.region.RegionStats;
import java.util.HashMap;
import java.util.Map;

/**
 * Per-region read and write rates from the regions' running counts: each region's counts are compared
 * with those of at least {@code windowNanos} earlier, so rates are averages over the last window.
 */
public final class RegionRates {
  private record Sample(long atNanos, long reads, long writes) {}

  private final long windowNanos;
  private final Map<String, Sample> samples = new HashMap<>();
  private final Map<String, RegionLoad> loads = new HashMap<>();
  private volatile Map<String, RegionLoad> latest = Map.of();

  public RegionRates(long windowNanos) {
    this.windowNanos = windowNanos;
  }

  /** Takes the counts of now; returns every region's load with the rates of the last complete window. */
  public synchronized Map<String, RegionLoad> update(Map<String, RegionStats> stats, long nowNanos) {
    samples.keySet().retainAll(stats.keySet());
    loads.keySet().retainAll(stats.keySet());
    for (Map.Entry<String, RegionStats> e : stats.entrySet()) {
      RegionStats s = e.getValue();
      Sample prev = samples.get(e.getKey());
      RegionLoad old = loads.get(e.getKey());
      double reads = old == null ? 0 : old.readsPerSecond();
      double writes = old == null ? 0 : old.writesPerSecond();
      if (prev == null || s.rowsRead() < prev.reads() || s.rowsWritten() < prev.writes()) {
        samples.put(e.getKey(), new Sample(nowNanos, s.rowsRead(), s.rowsWritten()));
      } else if (nowNanos - prev.atNanos() >= windowNanos) {
        double seconds = (nowNanos - prev.atNanos()) / 1e9;
        reads = (s.rowsRead() - prev.reads()) / seconds;
        writes = (s.rowsWritten() - prev.writes()) / seconds;
        samples.put(e.getKey(), new Sample(nowNanos, s.rowsRead(), s.rowsWritten()));
      }
      loads.put(e.getKey(), new RegionLoad(s.logBytes(), s.cellCount(), reads, writes));
    }
    latest = Map.copyOf(loads);
    return latest;
  }

  /** The loads of the last {@link #update}. */
  public Map<String, RegionLoad> latest() {
    return latest;
  }
}
