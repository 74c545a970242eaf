package io.basalt.storage.je;

import com.sleepycat.je.EnvironmentStats;
import com.sleepycat.je.StatsConfig;
import io.basalt.storage.region.EngineStats;

/**
 * Sums the statistics of every open environment. Fetch counts are cleared in each environment as they are read
 * and accumulated here, so they keep counting up when regions close (only the fetches of a region between the
 * last call and its close are lost).
 */
final class EngineStatsSampler {
  private static final StatsConfig CLEARING = new StatsConfig().setFast(true).setClear(true);

  private long fetchesSoFar;
  private long missesSoFar;

  synchronized EngineStats sample(Iterable<JeRegion> open, long configuredCacheBytes) {
    int regions = 0;
    long cacheBytes = 0;
    long upper = 0;
    long bins = 0;
    long logBytes = 0;
    long backlog = 0;
    long deletions = 0;
    for (JeRegion r : open) {
      EnvironmentStats s = r.environmentStats(CLEARING);
      if (s == null) {
        continue;
      }
      regions++;
      cacheBytes = Math.max(cacheBytes, s.getSharedCacheTotalBytes());
      fetchesSoFar += s.getNLNsFetch() + s.getNBINsFetch() + s.getNUpperINsFetch();
      missesSoFar += s.getNLNsFetchMiss() + s.getNBINsFetchMiss() + s.getNUpperINsFetchMiss();
      upper += s.getNCachedUpperINs();
      bins += s.getNCachedBINs();
      try {
        logBytes += r.stats().logBytes(); // the segment files on disk, as the region reports them
      } catch (RuntimeException closedMeanwhile) {
        // counted as gone
      }
      backlog += s.getCleanerBacklog();
      deletions += s.getFileDeletionBacklog();
    }
    return new EngineStats(regions, cacheBytes, configuredCacheBytes, fetchesSoFar, missesSoFar, upper, bins, logBytes,
        backlog, deletions);
  }
}
