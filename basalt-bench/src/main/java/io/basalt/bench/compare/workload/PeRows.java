package io.basalt.bench.compare.workload;

import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/** PerformanceEvaluation's row layout: 26-digit zero-padded keys, one column info:0 holding 1000 random bytes. */
public final class PeRows {
  public static final byte[] FAMILY = Bytes.toBytes("info");
  public static final byte[] QUALIFIER = Bytes.toBytes("0");
  public static final int VALUE_BYTES = 1000;
  private static final int KEY_DIGITS = 26;

  private PeRows() {}

  /** The key of row {@code i}, as PE's {@code format(i)}. */
  public static byte[] key(long i) {
    byte[] key = new byte[KEY_DIGITS];
    long v = i;
    for (int p = KEY_DIGITS - 1; p >= 0; p--) {
      key[p] = (byte) ('0' + v % 10);
      v /= 10;
    }
    return key;
  }

  static Put put(long i) {
    byte[] value = new byte[VALUE_BYTES];
    ThreadLocalRandom.current().nextBytes(value);
    return new Put(key(i)).addColumn(FAMILY, QUALIFIER, value);
  }

  /** 7 split keys evenly over {@code [0, keyspace)}: 8 regions, as PE's --presplit=8. */
  static byte[][] splits(long keyspace) {
    byte[][] splits = new byte[7][];
    for (int r = 1; r < 8; r++) {
      splits[r - 1] = key(keyspace * r / 8);
    }
    return splits;
  }
}
