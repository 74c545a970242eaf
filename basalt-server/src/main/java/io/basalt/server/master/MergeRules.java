package io.basalt.server.master;

import io.basalt.server.catalog.RegionRecord;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.DoNotRetryRegionException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.exceptions.MergeRegionException;

/**
 * Which merges are refused before anything happens, with HBase 2.6's exception classes and messages
 * (MergeTableRegionsProcedure.checkRegionsToMerge), plus what Basalt does not do: more than two regions at once, and
 * regions that are not adjacent even when forced (HBase then makes a region that overlaps the ones between). Merges of
 * replicated regions have their own refusals ({@link GroupMerges}).
 */
final class MergeRules {
  private MergeRules() {}

  /** HBase's RegionStateNode.checkOnline, wrapped as MergeTableRegionsProcedure wraps it. */
  private static void checkOnline(RegionRecord r) throws MergeRegionException {
    if (!RegionRecord.OPEN.equals(r.state())) {
      throw new MergeRegionException(new DoNotRetryRegionException(r.info().getEncodedName()
          + " is not OPEN; state=" + r.state()));
    }
  }

  /** Checks the regions as the client named them; returns them lower first. */
  static List<RegionRecord> check(List<RegionRecord> regions, boolean forcible) throws IOException {
    long unique = regions.stream().map(r -> r.info().getEncodedName()).distinct().count();
    if (regions.size() != unique) {
      throw new MergeRegionException("Duplicate regions specified; cannot merge a region to itself. Passed in "
          + regions.size() + " but only " + unique + " unique.");
    }
    if (unique < 2) {
      throw new MergeRegionException("Need two Regions at least to run a Merge");
    }
    if (unique > 2) {
      throw new DoNotRetryIOException("Merging " + unique + " regions at once is not supported by Basalt: merge them"
          + " two at a time");
    }
    // HBase's order: each region in turn, after the first one checked against the one before it.
    checkOnline(regions.get(0));
    RegionInfo previous = regions.get(0).info();
    RegionInfo next = regions.get(1).info();
    if (!previous.getTable().equals(next.getTable())) {
      throw new MergeRegionException("Can't merge regions from different tables: " + previous + ", " + next);
    }
    if (!next.isAdjacent(previous)) {
      if (!forcible) {
        throw new MergeRegionException("Unable to merge non-adjacent or non-overlapping regions '"
            + previous.getShortNameToLog() + "', '" + next.getShortNameToLog() + "' when force=false");
      }
      throw new DoNotRetryIOException("Merging non-adjacent regions ('" + previous.getShortNameToLog() + "', '"
          + next.getShortNameToLog() + "') is not supported by Basalt, even forced: the merged region would overlap"
          + " the regions between them");
    }
    checkOnline(regions.get(1));
    RegionRecord a = regions.get(0);
    RegionRecord b = regions.get(1);
    return RegionInfo.COMPARATOR.compare(a.info(), b.info()) <= 0 ? List.of(a, b) : List.of(b, a);
  }
}
