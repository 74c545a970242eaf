package io.basalt.gateway.rest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What {@code /TABLE/ROW[/COLUMN[,COLUMN...]][/[START,]END]} addresses, as HBase's RowSpec reads it. A column is
 * {@code FAMILY} or {@code FAMILY:QUALIFIER}; one timestamp names a version, two a half-open time range. A row
 * ending in {@code *} is a prefix (the "globbing" GET). Segments arrive already URL-decoded.
 */
record RowSpec(byte[] row, boolean prefix, List<byte[]> columns, long startTime, long endTime, boolean exactTime,
    int maxVersions) {

  static RowSpec parse(List<String> segments, String versions) {
    if (segments.isEmpty() || segments.get(0).isEmpty()) {
      throw RestException.badRequest("no row key in the path");
    }
    String rowText = segments.get(0);
    boolean prefix = rowText.endsWith("*");
    byte[] row = Bytes.toBytes(prefix ? rowText.substring(0, rowText.length() - 1) : rowText);
    List<byte[]> columns = new ArrayList<>();
    if (segments.size() > 1 && !segments.get(1).isEmpty()) {
      for (String column : segments.get(1).split(",")) {
        if (column.isEmpty() || column.startsWith(":")) {
          throw RestException.badRequest("bad column \"" + column + "\": expected FAMILY or FAMILY:QUALIFIER");
        }
        columns.add(column.getBytes(StandardCharsets.UTF_8));
      }
    }
    long start = 0;
    long end = HConstants.LATEST_TIMESTAMP;
    boolean exact = false;
    if (segments.size() > 2 && !segments.get(2).isEmpty()) {
      String[] times = segments.get(2).split(",", -1);
      if (times.length == 1) {
        end = timestamp(times[0]);
        exact = true;
      } else if (times.length == 2) {
        start = timestamp(times[0]);
        end = timestamp(times[1]);
        if (start >= end) {
          throw RestException.badRequest("time range " + segments.get(2) + " is empty");
        }
      } else {
        throw RestException.badRequest("bad timestamp segment \"" + segments.get(2) + "\"");
      }
    }
    if (segments.size() > 3) {
      throw RestException.badRequest("too many path segments after the row");
    }
    int max = 1;
    if (versions != null) {
      try {
        max = Integer.parseInt(versions);
      } catch (NumberFormatException e) {
        throw RestException.badRequest("v must be a number of versions, not " + versions);
      }
      if (max < 1) {
        throw RestException.badRequest("v must be at least 1");
      }
    }
    return new RowSpec(row, prefix, columns, start, end, exact, max);
  }

  private static long timestamp(String text) {
    long ts = CellSetCodec.parseLong(text, "timestamp");
    if (ts < 0) {
      throw RestException.badRequest("timestamp " + ts + " is negative");
    }
    return ts;
  }

  boolean hasTime() {
    return exactTime || startTime != 0 || endTime != HConstants.LATEST_TIMESTAMP;
  }

  /** {family, qualifier-or-null} of a column; the qualifier is null for a bare family. */
  static byte[][] split(byte[] column) {
    byte[][] parts = CellUtil.parseColumn(column);
    return parts.length == 1 ? new byte[][] {parts[0], null} : parts;
  }

  @Override
  public String toString() {
    return Bytes.toStringBinary(row) + (prefix ? "*" : "") + " " + columns.stream().map(Bytes::toStringBinary).toList()
        + " " + Arrays.toString(new long[] {startTime, endTime});
  }
}
