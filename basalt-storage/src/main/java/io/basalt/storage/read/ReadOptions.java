package io.basalt.storage.read;

/**
 * The per-cell part of a read shared by gets and scans: columns, time range (with optional per-family
 * overrides, HBase's {@code setColumnFamilyTimeRange}), versions, filter, and HBase's per-family result limit
 * and offset ({@code setMaxResultsPerColumnFamily}, {@code setRowOffsetPerColumnFamily}).
 *
 * <p>{@code raw} is HBase's raw scan: delete markers are returned as cells and mask nothing. What a raw read
 * shows is what the region keeps once its purge has run (see {@link VersionTracker#retain}), so the answer
 * does not depend on when the background purge last ran.
 */
public record ReadOptions(ColumnSelection columns, TimeRange timeRange, int maxVersions, ReadFilter filter,
    int maxResultsPerFamily, int offsetPerFamily, java.util.Map<String, TimeRange> familyTimeRanges, boolean raw) {
  public static final ReadOptions DEFAULT =
      new ReadOptions(ColumnSelection.ALL, TimeRange.ALL, 1, null, -1, 0, java.util.Map.of(), false);

  /** A read that is not raw. */
  public ReadOptions(ColumnSelection columns, TimeRange timeRange, int maxVersions, ReadFilter filter,
      int maxResultsPerFamily, int offsetPerFamily, java.util.Map<String, TimeRange> familyTimeRanges) {
    this(columns, timeRange, maxVersions, filter, maxResultsPerFamily, offsetPerFamily, familyTimeRanges, false);
  }


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
    return new ReadOptions(columns, timeRange, maxVersions, filter, maxResultsPerFamily, offsetPerFamily, m, raw);
  }

  public ReadOptions withColumns(ColumnSelection c) {
    return new ReadOptions(c, timeRange, maxVersions, filter, maxResultsPerFamily, offsetPerFamily, familyTimeRanges, raw);
  }

  public ReadOptions withTimeRange(TimeRange t) {
    return new ReadOptions(columns, t, maxVersions, filter, maxResultsPerFamily, offsetPerFamily, familyTimeRanges, raw);
  }

  public ReadOptions withMaxVersions(int v) {
    return new ReadOptions(columns, timeRange, v, filter, maxResultsPerFamily, offsetPerFamily, familyTimeRanges, raw);
  }

  public ReadOptions withFilter(ReadFilter f) {
    return new ReadOptions(columns, timeRange, maxVersions, f, maxResultsPerFamily, offsetPerFamily, familyTimeRanges, raw);
  }

  public ReadOptions withFamilyLimits(int maxResults, int offset) {
    return new ReadOptions(columns, timeRange, maxVersions, filter, maxResults, offset, familyTimeRanges, raw);
  }

  /** HBase's {@code Scan.setRaw}: markers come back as cells and mask nothing. */
  public ReadOptions withRaw(boolean r) {
    return new ReadOptions(columns, timeRange, maxVersions, filter, maxResultsPerFamily, offsetPerFamily, familyTimeRanges, r);
  }
}
