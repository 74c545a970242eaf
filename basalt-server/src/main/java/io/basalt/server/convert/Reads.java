package io.basalt.server.convert;

import io.basalt.storage.read.ColumnSelection;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.read.TimeRange;
import java.util.Map;
import java.util.NavigableSet;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Query;
import org.apache.hadoop.hbase.client.Scan;

/** HBase's Get and Scan as storage reads. */
public final class Reads {
  private Reads() {}

  public static ReadOptions options(Get get) {
    return common(get, get.getFamilyMap(), get.getTimeRange(), get.getMaxVersions())
        .withFamilyLimits(get.getMaxResultsPerColumnFamily(), get.getRowOffsetPerColumnFamily());
  }

  /** @throws DoNotRetryIOException for a raw scan that names columns, which HBase's store scanner refuses */
  public static ScanSpec spec(Scan scan) throws DoNotRetryIOException {
    if (scan.isRaw() && scan.getFamilyMap().values().stream().anyMatch(q -> q != null && !q.isEmpty())) {
      throw new DoNotRetryIOException("Cannot specify any column for a raw scan");
    }
    if (scan.isReversed() && scan.getFilter() != null) {
      // As HBase's region scanner does: filters such as PrefixFilter judge "past the prefix" by direction.
      scan.getFilter().setReversed(true);
    }
    ReadOptions read = common(scan, scan.getFamilyMap(), scan.getTimeRange(), scan.getMaxVersions())
        .withFamilyLimits(scan.getMaxResultsPerColumnFamily(), scan.getRowOffsetPerColumnFamily())
        .withRaw(scan.isRaw());
    return new ScanSpec(scan.getStartRow(), scan.includeStartRow(), scan.getStopRow(), scan.includeStopRow(),
        scan.isReversed(), read, 0, Math.max(0, scan.getBatch())); // the limit is counted per call (RowLimit)
  }

  private static ReadOptions common(Query query, Map<byte[], NavigableSet<byte[]>> families,
      org.apache.hadoop.hbase.io.TimeRange tr, int maxVersions) {
    ColumnSelection.Builder columns = ColumnSelection.builder();
    for (Map.Entry<byte[], NavigableSet<byte[]>> e : families.entrySet()) {
      if (e.getValue() == null || e.getValue().isEmpty()) {
        columns.family(e.getKey());
      } else {
        for (byte[] q : e.getValue()) {
          columns.column(e.getKey(), q);
        }
      }
    }
    ReadOptions options = ReadOptions.DEFAULT
        .withColumns(columns.build())
        .withTimeRange(new TimeRange(tr.getMin(), tr.getMax()))
        .withMaxVersions(Math.max(1, maxVersions))
        .withFilter(query.getFilter() == null ? null : new FilterAdapter(query.getFilter()));
    for (Map.Entry<byte[], org.apache.hadoop.hbase.io.TimeRange> e : query.getColumnFamilyTimeRange().entrySet()) {
      options = options.withFamilyTimeRange(e.getKey(), new TimeRange(e.getValue().getMin(), e.getValue().getMax()));
    }
    return options;
  }
}
