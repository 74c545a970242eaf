package io.basalt.bench.elasticity;

import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code count} rows named {@code prefix} + 16 hex digits of a bijective mix of their index, so rows with
 * neighbouring indexes (and YCSB's most popular ones) land all over the key space and every pre-split
 * region gets an even share. Row {@code i} is {@link #row}(i).
 */
record KeySpace(String prefix, long count) {
  static final byte[] FAMILY = Bytes.toBytes("f");
  static final byte[] QUALIFIER = Bytes.toBytes("q");

  byte[] row(long i) {
    return Bytes.toBytes(prefix + String.format("%016x", mix(i)));
  }

  /** A bijection of 64-bit values (the finalizer of SplitMix64), spreading neighbours apart. */
  static long mix(long i) {
    long z = i + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** {@code regions - 1} split keys cutting this key space into equal ranges. */
  byte[][] splitKeys(int regions) {
    byte[][] out = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      long boundary = Long.divideUnsigned(-1L, regions) * i;
      out[i - 1] = Bytes.toBytes(prefix + String.format("%016x", boundary));
    }
    return out;
  }
}
