package io.basalt.storage.region;

/**
 * Figures of a storage engine as a whole (all its open regions), for metrics and the status pages.
 *
 * @param openRegions regions open now
 * @param cacheBytes bytes used in the shared B+-tree cache
 * @param cacheLimitBytes the cache's configured size
 * @param cacheFetches node fetches through the cache since the engine started (B+-tree internal and leaf nodes)
 * @param cacheMisses those of them that had to read the log (disk or OS page cache)
 * @param upperInternalNodes B+-tree internal nodes above the bottom level held in the cache now
 * @param bottomInternalNodes bottom internal nodes (BINs, which hold the keys) held in the cache now
 * @param logBytes bytes of all open regions' log segment files on disk
 * @param cleanerBacklog log files waiting for the cleaner (nonzero for long: the cleaner is behind)
 * @param fileDeletionBacklog cleaned log files waiting to be deleted
 */
public record EngineStats(int openRegions, long cacheBytes, long cacheLimitBytes, long cacheFetches, long cacheMisses,
    long upperInternalNodes, long bottomInternalNodes, long logBytes, long cleanerBacklog, long fileDeletionBacklog) {
  /** Share of fetches served from the cache since start, 1 when nothing was fetched yet. */
  public double cacheHitRatio() {
    return cacheFetches == 0 ? 1.0 : 1.0 - (double) cacheMisses / cacheFetches;
  }
}
