package io.basalt.bench.storage;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** The benchmark's data: rows {@code String.format("%016d", k)}, one family, one qualifier, fixed-size values. */
final class Keys {
  static final byte[] FAMILY = Bytes.of("f");
  static final byte[] QUALIFIER = Bytes.of("q");
  /** Row numbers are below this (16 decimal digits). */
  static final long KEY_SPACE = 10_000_000_000_000_000L;

  private Keys() {}

  /** A region of the whole key space with the one family (HBase defaults: VERSIONS 1, no TTL). */
  static RegionDescriptor descriptor() {
    return new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL);
  }

  /** The same bytes as {@code String.format("%016d", k)}, without the formatter's cost in every operation. */
  static byte[] row(long k) {
    if (k < 0 || k >= KEY_SPACE) {
      throw new IllegalArgumentException("row number out of range: " + k);
    }
    byte[] b = new byte[16];
    for (int i = 15; i >= 0; i--) {
      b[i] = (byte) ('0' + (int) (k % 10));
      k /= 10;
    }
    return b;
  }

  /** Fails if {@link #row} ever disagrees with {@code String.format}; run once at start. */
  static void checkRowFormat() {
    for (long k : new long[] {0, 7, 42, 104_857, 1_048_575, 123_456_789_012L, KEY_SPACE - 1}) {
      String expected = String.format("%016d", k);
      String actual = new String(row(k), java.nio.charset.StandardCharsets.US_ASCII);
      if (!expected.equals(actual)) {
        throw new IllegalStateException("row(" + k + ") = " + actual + ", expected " + expected);
      }
    }
  }

  /** Random (incompressible) value bytes; each worker thread makes its own and reuses it. */
  static byte[] value(int size) {
    byte[] v = new byte[size];
    ThreadLocalRandom.current().nextBytes(v);
    return v;
  }

  static RowMutation put(long k, byte[] value) {
    return RowMutation.of(row(k)).put(FAMILY, QUALIFIER, value).build();
  }
}
