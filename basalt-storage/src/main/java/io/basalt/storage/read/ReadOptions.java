package io.basalt.storage.read;

/**
 * The per-cell part of a read shared by gets and scans: columns, time range, versions, filter, and HBase's
 * per-family result limit and offset ({@code setMaxResultsPerColumnFamily}, {@code setRowOffsetPerColumnFamily}).
 */
public record ReadOptions(ColumnSelection columns, TimeRange timeRange, int maxVersions, ReadFilter filter,
    int maxResultsPerFamily, int offsetPerFamily) {
  public static final ReadOptions DEFAULT = new ReadOptions(ColumnSelection.ALL, TimeRange.ALL, 1, null, -1, 0);

  public ReadOptions {
    if (maxVersions < 1) {
      throw new IllegalArgumentException("maxVersions must be positive");
    }
    columns = columns == null ? ColumnSelection.ALL : columns;
    timeRange = timeRange == null ? TimeRange.ALL : timeRange;
  }

  public ReadOptions withColumns(ColumnSelection c) {
    return new ReadOptions(c, timeRange, maxVersions, filter, maxResultsPerFamily, offsetPerFamily);
  }

  public ReadOptions withTimeRange(TimeRange t) {
    return new ReadOptions(columns, t, maxVersions, filter, maxResultsPerFamily, offsetPerFamily);
  }

  public ReadOptions withMaxVersions(int v) {
    return new ReadOptions(columns, timeRange, v, filter, maxResultsPerFamily, offsetPerFamily);
  }

  public ReadOptions withFilter(ReadFilter f) {
    return new ReadOptions(columns, timeRange, maxVersions, f, maxResultsPerFamily, offsetPerFamily);
  }

  public ReadOptions withFamilyLimits(int maxResults, int offset) {
    return new ReadOptions(columns, timeRange, maxVersions, filter, maxResults, offset);
  }
}
