package io.basalt.storage.je;

import io.basalt.storage.cell.CellKeyCodec;

/**
 * A blind put into {@link CellLayout#BLIND_ROW_RECORDS}: the cells of one puts-only mutation of a row that is
 * already stored, written as a record of their own next to the row's record instead of read into it and rewritten
 * (on a cold cache that read was a random disk read per put). Readers merge a row's deltas into its record in
 * write order, trimming each delta's columns to VERSIONS as the put would have ({@link RowChunk#overlay}); the
 * next writer that reads the row anyway folds them into it.
 *
 * <pre>
 * record key = rowPrefix 00 00 FF seq(4, big-endian, from 1)   seq orders a row's deltas by write
 * value      = now(8, big-endian) chunk                          now: the writer's clock (VERSIONS and TTL trims)
 * chunk      = a row record's value, see {@link RowChunk}          flags 0
 * </pre>
 *
 * A cell key's suffix starts with {@code 00 00} only for a family marker, whose next byte (the first of its reversed
 * timestamp) is at most {@code 7F}: so no cell or chunk key starts with a delta's prefix, and a row's deltas sort
 * after its family markers and before its columns. Deltas are written only to a row stored as a single record keyed
 * by its row prefix, so a row with deltas is always that record followed by them; a row's deltas move with its
 * records in splits, merges and range collection, which go by row prefix.
 */
final class RowDelta {
  /** Deltas a row may have before a put folds them (reads merge every one: each is a record to fetch). */
  static final int MAX_PER_ROW = 4;
  static final int HEADER_BYTES = 8;
  private static final int SUFFIX_BYTES = 7;

  private RowDelta() {}

  static byte[] key(byte[] rowPrefix, int seq) {
    byte[] k = java.util.Arrays.copyOf(rowPrefix, rowPrefix.length + SUFFIX_BYTES);
    int p = rowPrefix.length;
    k[p + 2] = (byte) 0xFF;
    k[p + 3] = (byte) (seq >>> 24);
    k[p + 4] = (byte) (seq >>> 16);
    k[p + 5] = (byte) (seq >>> 8);
    k[p + 6] = (byte) seq;
    return k;
  }

  /** Whether {@code key} is a delta's (of any row). */
  static boolean isDelta(byte[] key) {
    int n = key.length;
    // The fixed bytes first: most keys fail there without a walk of the row.
    return n >= 9 && key[n - 7] == 0 && key[n - 6] == 0 && key[n - 5] == (byte) 0xFF && key[n - 9] == 0
        && key[n - 8] == 1 && CellKeyCodec.safeRowPrefixLength(key) == n - SUFFIX_BYTES;
  }

  /** Whether {@code key} is a delta of the row whose prefix is {@code rowPrefix}. */
  static boolean isDeltaOf(byte[] key, byte[] rowPrefix) {
    int p = rowPrefix.length;
    return key.length == p + SUFFIX_BYTES && key[p] == 0 && key[p + 1] == 0 && key[p + 2] == (byte) 0xFF
        && java.util.Arrays.equals(key, 0, p, rowPrefix, 0, p);
  }

  static int seqOf(byte[] key) {
    int n = key.length;
    return (key[n - 4] & 0xFF) << 24 | (key[n - 3] & 0xFF) << 16 | (key[n - 2] & 0xFF) << 8 | (key[n - 1] & 0xFF);
  }

  static byte[] encode(RowChunk cells, long now) {
    byte[] out = cells.encode(0, cells.size(), false, HEADER_BYTES);
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (now >>> (56 - 8 * i));
    }
    return out;
  }

  static long nowOf(byte[] data) {
    long now = 0;
    for (int i = 0; i < 8; i++) {
      now = now << 8 | (data[i] & 0xFF);
    }
    return now;
  }

  static RowChunk decode(byte[] key, byte[] data) {
    return RowChunk.decode(key, data, HEADER_BYTES);
  }
}
