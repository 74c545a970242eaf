package io.basalt.storage.read;

/**
 * The per-cell part of a read shared by gets and scans: columns, time range (with optional per-family
 * overrides, HBase's {@code setColumnFamilyTimeRange}), versions, filter, and HBase's per-family result limit
 * and offset ({@code setMaxResultsPerColumnFamily}, {@code setRowOffsetPerColumnFamily}).
 */
public record ReadOptions(ColumnSelection columns, TimeRange timeRange, int maxVersions, ReadFilter filter,
    int maxResultsPerFamily, int offsetPerFamily, java.util.Map<String, TimeRange> familyTimeRanges) {
  public static final ReadOptions DEFAULT =
      new ReadOptions(ColumnSelection.ALL, TimeRange.ALL, 1, null, -1, 0, java.util.Map.of());


  public ReadOptions {
    if (maxVersions < 1) {
      throw new IllegalArgumentException("maxVersions must be positive");
    }
    columns = columns == null ? ColumnSelection.ALL : columns;
    timeRange = timeRange == null ? TimeRange.ALL : timeRange;
    familyTimeRanges = familyTimeRanges == null ? java.util.Map.of() : java.util.Map.copyOf(familyTimeRanges);
  }

  /** The time range that applies to one family. */
  public TimeRange timeRange(byte[] family) {
    if (familyTimeRanges.isEmpty()) {
      return timeRange;
    }
    return familyTimeRanges.getOrDefault(java.util.HexFormat.of().formatHex(family), timeRange);
  }

  /** Overrides the time range for one family. */
  public ReadOptions withFamilyTimeRange(byte[] family, TimeRange t) {
    java.util.Map<String, TimeRange> m = new java.util.HashMap<>(familyTimeRanges);
    m.put(java.util.HexFormat.of().formatHex(family), t);
    return new ReadOptions(columns, timeRange, maxVersions, filter, maxResultsPerFamily, offsetPerFamily, m);
  }

  public ReadOptions withColumns(ColumnSelection c) {
    return new ReadOptions(c, timeRange, maxVersions, filter, maxResultsPerFamily, offsetPerFamily, familyTimeRanges);
  }

  public ReadOptions withTimeRange(TimeRange t) {
    return new ReadOptions(columns, t, maxVersions, filter, maxResultsPerFamily, offsetPerFamily, familyTimeRanges);
  }

  public ReadOptions withMaxVersions(int v) {
    return new ReadOptions(columns, timeRange, v, filter, maxResultsPerFamily, offsetPerFamily, familyTimeRanges);
  }

  public ReadOptions withFilter(ReadFilter f) {
    return new ReadOptions(columns, timeRange, maxVersions, f, maxResultsPerFamily, offsetPerFamily, familyTimeRanges);
  }

  public ReadOptions withFamilyLimits(int maxResults, int offset) {
    return new ReadOptions(columns, timeRange, maxVersions, filter, maxResults, offset, familyTimeRanges);
  }
}
