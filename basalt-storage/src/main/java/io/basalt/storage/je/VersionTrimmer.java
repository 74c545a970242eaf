package io.basalt.storage.je;

import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.read.VersionTracker;

/**
 * Keeps a column at no more than VERSIONS surviving versions right after a put (see {@link RowWriter}): a
 * cheap check by stepping from the key just put, and the trim when the check fails.
 */
final class VersionTrimmer {
  private VersionTrimmer() {}

  /**
   * Whether the column of the key just put (the cursor is on it) holds no more than {@code maxVersions} puts,
   * found by stepping from the cursor without a B+-tree search. A put of the newest version (the usual one)
   * is the column's first key, so it takes a step back and the column's length forward. False (the caller
   * then trims, which searches) when the key is not the column's first or the column is too long.
   */
  static boolean fitsVersions(CellCursor cursor, byte[] putKey, int maxVersions) {
    byte[] column = CellKeyCodec.columnPrefixOf(putKey);
    cursor.valuesWithMoves(false);
    boolean stepped = cursor.prevInRow();
    if (stepped && CellKeyCodec.startsWith(cursor.key(), column)) {
      return false;
    }
    int puts = 0;
    boolean on = !stepped || cursor.nextInRow(); // back on the key put
    while (on && CellKeyCodec.startsWith(cursor.key(), column)) {
      if (CellKeyCodec.typeOf(cursor.key()) == CellType.PUT && ++puts > maxVersions) {
        return false;
      }
      on = cursor.nextInRow();
    }
    return true;
  }

  /**
   * Deletes what a compaction would drop from one column right after a put, so a column never holds more
   * than VERSIONS surviving versions (reads are then independent of background timing). Cheap in the
   * common case: a key-only walk of the column, stopping when it holds no more than VERSIONS puts. The
   * walks read without JE locks: the caller holds the row's write lock, and every other writer of the row
   * (puts, purges) takes it too, so nothing else changes these keys meanwhile.
   */
  static long trimColumn(CellCursor cursor, FamilyStore family, byte[] row, byte[] qualifier, long now) {
    byte[] prefix = CellKeyCodec.columnPrefix(row, qualifier);
    int maxVersions = family.schema().maxVersions();
    cursor.valuesWithMoves(false);
    int puts = 0;
    boolean on = cursor.seek(prefix);
    while (on && CellKeyCodec.startsWith(cursor.key(), prefix)) {
      if (CellKeyCodec.typeOf(cursor.key()) == CellType.PUT && ++puts > maxVersions) {
        break;
      }
      on = cursor.nextInRow();
    }
    if (puts <= maxVersions) {
      return 0;
    }
    VersionTracker tracker = new VersionTracker(family.schema(), io.basalt.storage.read.TimeRange.ALL, now);
    if (backToColumnStart(cursor, prefix, CellKeyCodec.rowPrefix(row))) {
      on = true;
    } else {
      // Family markers (or other columns) of the row come first: read the markers, then find the column again.
      byte[] markers = CellKeyCodec.familyMarkerPrefix(row);
      on = cursor.seek(markers);
      while (on && CellKeyCodec.startsWith(cursor.key(), markers)) {
        CellKeyCodec.Key k = CellKeyCodec.decode(cursor.key());
        tracker.familyMarker(k.timestamp(), k.type());
        on = cursor.nextInRow();
      }
      on = cursor.seek(prefix);
    }
    return trimFrom(cursor, on, prefix, tracker);
  }

  /**
   * The check of {@link #fitsVersions} and the trim of {@link #trimColumn} in one forward walk from the key just
   * put (the cursor is on it), for a mutation of puts only (trimming now or after the rest of the mutation is then
   * the same: more puts only push older versions further out). A put of the newest version takes one step back, one
   * to return and one per version of its column; the old check-then-trim took about fourteen cursor moves and a
   * {@link VersionTracker} per put.
   *
   * <p>Returns the number of cells removed (0 when the column is within VERSIONS), or -1 when one walk cannot
   * decide and the caller must {@link #trimColumn} after the mutation: the key is not its column's first, the
   * column is over VERSIONS but the row has keys before it (family markers would count), the column holds a
   * delete marker, a version within VERSIONS is one a compaction would drop (TTL), or the cursor did not come
   * back to the key put. Removes nothing when it returns -1.
   */
  static long trimAfterPut(CellCursor cursor, FamilyStore family, byte[] putKey, long now) {
    int columnLength = putKey.length - 9;
    cursor.valuesWithMoves(false);
    boolean rowHasEarlierKeys = cursor.prevInRow();
    boolean on = true;
    if (rowHasEarlierKeys) {
      if (CellKeyCodec.sharesPrefix(cursor.key(), putKey, columnLength)) {
        return -1;
      }
      on = cursor.nextInRow();
    }
    if (!on || !java.util.Arrays.equals(cursor.key(), putKey)) {
      return -1; // not back on the key put: decide by trimColumn
    }
    int maxVersions = family.schema().maxVersions();
    long[] seen = new long[Math.min(maxVersions, 4) + 1];
    int puts = 0;
    while (on && CellKeyCodec.sharesPrefix(cursor.key(), putKey, columnLength)) {
      byte[] k = cursor.key();
      if (CellKeyCodec.typeOf(k) != CellType.PUT) {
        return -1;
      }
      if (puts == seen.length) {
        seen = java.util.Arrays.copyOf(seen, puts * 2);
      }
      seen[puts++] = CellKeyCodec.timestampOf(k);
      if (puts > maxVersions) {
        break;
      }
      on = cursor.nextInRow();
    }
    if (puts <= maxVersions) {
      return 0;
    }
    if (rowHasEarlierKeys) {
      return -1;
    }
    // As trimFrom would from the column's first key: every version before the one over VERSIONS must be kept.
    VersionTracker tracker = new VersionTracker(family.schema(), io.basalt.storage.read.TimeRange.ALL, now);
    for (int i = 0; i < puts - 1; i++) {
      if (tracker.retain(seen[i], CellType.PUT) != VersionTracker.Verdict.YES) {
        return -1;
      }
    }
    long removed = 0;
    while (on && CellKeyCodec.sharesPrefix(cursor.key(), putKey, columnLength)) {
      byte[] k = cursor.key();
      if (tracker.retain(CellKeyCodec.timestampOf(k), CellKeyCodec.typeOf(k)) != VersionTracker.Verdict.YES) {
        cursor.delete();
        removed++;
      }
      on = cursor.nextInRow();
    }
    return removed;
  }

  /** Deletes what {@code tracker} does not retain, from the column key the cursor is on ({@code st}) to the column's end. */
  private static long trimFrom(CellCursor cursor, boolean on, byte[] prefix, VersionTracker tracker) {
    long removed = 0;
    while (on && CellKeyCodec.startsWith(cursor.key(), prefix)) {
      byte[] k = cursor.key();
      if (tracker.retain(CellKeyCodec.timestampOf(k), CellKeyCodec.typeOf(k)) != VersionTracker.Verdict.YES) {
        cursor.delete();
        removed++;
      }
      on = cursor.nextInRow();
    }
    return removed;
  }

  /**
   * Steps the cursor, inside a column, back to the column's first key (left in {@code key}) without a new
   * B+-tree search, if nothing of the same row precedes the column (so the row has no family markers, which
   * sort before its columns). Returns false, the cursor anywhere, if something of the row does.
   */
  private static boolean backToColumnStart(CellCursor cursor, byte[] columnPrefix, byte[] rowPrefix) {
    boolean on;
    do {
      on = cursor.prev();
    } while (on && CellKeyCodec.startsWith(cursor.key(), columnPrefix));
    if (on) {
      if (CellKeyCodec.startsWith(cursor.key(), rowPrefix)) {
        return false;
      }
      on = cursor.next();
    } else {
      // Nothing before the column, so its first key is the family's (a failed move leaves the cursor unpositioned).
      on = cursor.first();
    }
    return on && CellKeyCodec.startsWith(cursor.key(), columnPrefix);
  }
}
