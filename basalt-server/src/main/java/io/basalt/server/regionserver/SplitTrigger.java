package io.basalt.server.regionserver;

import io.basalt.storage.region.RegionStats;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the master to split regions that grew past their threshold: the table's MAX_FILESIZE if it set one,
 * else the server's size threshold, or the cell-count threshold. A region still collecting the keys its
 * parent left behind is not split yet (its middle would be wrong), and a request is not repeated for a
 * while, so a slow split is not asked for twice.
 */
final class SplitTrigger implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(SplitTrigger.class);
  private static final long REPEAT_AFTER_NANOS = 30_000_000_000L;

  private final RegionServer server;
  private final long splitBytes;
  private final long splitCells;
  private final Consumer<RegionInfo> requestSplit;
  private final Map<String, Long> requested = new ConcurrentHashMap<>();

  SplitTrigger(RegionServer server, long splitBytes, long splitCells, Consumer<RegionInfo> requestSplit) {
    this.server = server;
    this.splitBytes = splitBytes;
    this.splitCells = splitCells;
    this.requestSplit = requestSplit;
  }

  @Override
  public void run() {
    try {
      long now = System.nanoTime();
      for (Map.Entry<RegionInfo, RegionStats> e : server.regionStats().entrySet()) {
        RegionInfo region = e.getKey();
        RegionStats stats = e.getValue();
        TableDescriptor table = server.tableOf(region);
        // A replicated region is split at its primary's request (the other members grow alike); the master
        // refuses, retriably, while a member is down, and the request comes again later.
        if (table == null || !table.isSplitEnabled() || stats.pendingCollection() || server.isSecondary(region)
            || server.isMovingOut(region.getEncodedName()) || !due(region, stats, table)) {
          continue;
        }
        Long last = requested.get(region.getEncodedName());
        if (last != null && now - last < REPEAT_AFTER_NANOS) {
          continue;
        }
        requested.put(region.getEncodedName(), now);
        LOG.info("asking for a split of {} ({} log bytes, {} cells)", region.getRegionNameAsString(),
            stats.logBytes(), stats.cellCount());
        requestSplit.accept(region);
      }
    } catch (RuntimeException e) {
      LOG.warn("split check failed", e);
    }
  }

  private boolean due(RegionInfo region, RegionStats stats, TableDescriptor table) {
    long maxBytes = table.getMaxFileSize() > 0 ? table.getMaxFileSize() : splitBytes;
    return stats.logBytes() > maxBytes || stats.cellCount() > splitCells;
  }
}
