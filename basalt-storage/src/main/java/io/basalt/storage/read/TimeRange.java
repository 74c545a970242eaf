package io.basalt.storage.read;

/** HBase's half-open time range {@code [min, max)}. */
public record TimeRange(long min, long max) {
  public static final TimeRange ALL = new TimeRange(0, Long.MAX_VALUE);

  public TimeRange {
    if (min < 0 || max < min) {
      throw new IllegalArgumentException("invalid time range [" + min + ", " + max + ")");
    }
  }

  /** The range HBase's {@code Get.setTimestamp(ts)} reads: exactly {@code ts}. */
  public static TimeRange at(long ts) {
    return new TimeRange(ts, ts == Long.MAX_VALUE ? ts : ts + 1);
  }

  public boolean contains(long ts) {
    return ts >= min && ts < max;
  }

  /** HBase's {@code withinOrAfterTimeRange}: a marker this new may mask cells inside the range. */
  public boolean containsOrAfter(long ts) {
    return ts >= min;
  }

  public boolean isAll() {
    return min == 0 && max == Long.MAX_VALUE;
  }
}
