package io.basalt.storage.je;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.read.ReadFilter;
import io.basalt.storage.read.ReadFilter.Decision;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.VersionTracker;
import io.basalt.storage.read.VersionTracker.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the visible cells of one row across the selected families with {@link CellCursor}s, applying masking,
 * versions, the caller's filter and per-family limits, in HBase's cell order. Cursors are opened by the
 * caller (one per family, {@code READ_UNCOMMITTED}); the caller makes the read atomic with the row lock.
 */
final class RowReader {
  /**
   * What reading one row produced. {@code nextKeys[f]} is where family f's cursor stopped after the row when
   * that is known to be the first key past it ({@link #END} if the family has no more keys), else null.
   */
  record Outcome(List<Cell> cells, byte[] seekRow, byte[][] nextKeys, int afterFamily, byte[] afterFrom,
      boolean afterInclusive) {
    static final Outcome NOTHING = new Outcome(List.of(), null, null, -1, null, false);

    /** Where HBase stands after the last cell returned (null: no cell was); made on demand, as few reads ask. */
    After after() {
      return afterFamily < 0 ? null : new After(afterFamily, afterFrom, afterInclusive);
    }

    Outcome withCells(List<Cell> other) {
      return new Outcome(other, seekRow, nextKeys, afterFamily, afterFrom, afterInclusive);
    }
  }

  /**
   * Where HBase's store scanner moves after the row's last returned cell, in family {@code family}: to the
   * first key after {@code from} ({@code inclusive}: at or after), or, with {@code from} null, past the row in
   * that family. HBase says a result cut there (by batch or size) may have more cells in its row when a key of
   * the row, visible or not, lies ahead in that family or a later one; see {@link JeScanner}.
   */
  record After(int family, byte[] from, boolean inclusive) {}

  /** Marks a family with no keys after the row. */
  static final byte[] END = new byte[0];

  /** HBase's cell order within one row and family: qualifier, then newest first, then markers before puts. */
  private static final java.util.Comparator<Cell> HBASE_ORDER = (a, b) -> {
    int c = Bytes.compare(a.qualifier(), b.qualifier());
    if (c != 0) {
      return c;
    }
    c = Long.compare(b.timestamp(), a.timestamp());
    return c != 0 ? c : Integer.compare(b.type().code(), a.type().code());
  };

  /** Steps to take within a column before searching for its end instead. */
  private static final int COLUMN_STEPS = 4;

  private final List<FamilyStore> families;
  private final ReadOptions options;
  private final long now;
  private final boolean[] closed;
  private final boolean reversed;
  /**
   * Reads of one row (a Get, a writer's read): the walk never steps past the row, which in row records would read
   * the next row's record for nothing. A scanner's walk does, to learn where the next row starts.
   */
  private final boolean oneRow;
  /** Each family's walk, made at its first row and reset for each later one: a scan reads many rows. */
  private final FamilyWalk[] walks;
  /** The cells the last row read had: the next row's list starts that large (rows of a table tend to be alike). */
  private int lastRowCells;

  /** A reader of single rows. */
  RowReader(List<FamilyStore> families, ReadOptions options, long now) {
    this(families, options, now, new boolean[families.size()], false, true);
  }

  /**
   * {@code closed}: the scan's families HBase would no longer read (see {@link #read}); this reader skips
   * them and marks more. A scanner keeps one array for its whole life.
   */
  RowReader(List<FamilyStore> families, ReadOptions options, long now, boolean[] closed) {
    this(families, options, now, closed, false);
  }

  /** {@code reversed}: the rows come in a reversed scan, where HBase ignores seek hints that point forward. */
  RowReader(List<FamilyStore> families, ReadOptions options, long now, boolean[] closed, boolean reversed) {
    this(families, options, now, closed, reversed, false);
  }

  private RowReader(List<FamilyStore> families, ReadOptions options, long now, boolean[] closed, boolean reversed,
      boolean oneRow) {
    this.oneRow = oneRow;
    this.families = families;
    this.options = options;
    this.now = now;
    this.closed = closed;
    this.reversed = reversed;
    this.walks = new FamilyWalk[families.size()];
  }

  List<FamilyStore> families() {
    return families;
  }

  ReadOptions options() {
    return options;
  }

  /**
   * Reads {@code row}. Row-level filter calls ({@code filterRowKey}, {@code filterRowCells},
   * {@code filterRow}) are the caller's; this applies {@code filterCell}/{@code transformCell} and hints.
   * {@code seekRow} is set when a filter hint points past this row.
   *
   * <p>{@code starts} (may be null) spares a scanner the B+-tree search of each row: {@code starts[f]} non-null
   * says cursor f already sits on the first key at or after the row ({@link #END}: the family has none), as
   * the walk of the row before left it. Null entries are searched.
   */
  Outcome read(byte[] row, CellCursor[] cursors, byte[][] starts) {
    List<Cell> out = new ArrayList<>(Math.max(lastRowCells, 1));
    byte[][] nextKeys = new byte[families.size()][];
    ReadFilter filter = options.filter();
    byte[] rowPrefix = CellKeyCodec.rowPrefix(row);
    byte[] fromFamily = null;
    int lastFiltered = -1;
    afterFamily = -1;
    for (int f = 0; f < families.size(); f++) {
      FamilyStore family = families.get(f);
      if (closed[f] || fromFamily != null && Bytes.compare(family.name(), fromFamily) < 0) {
        continue;
      }
      FamilyWalk walk = walks[f];
      if (walk == null) {
        walk = walks[f] = new FamilyWalk(f, family, filter);
      }
      walk.start(row, rowPrefix, cursors[f], out);
      int familyStart = out.size();
      walk.run(starts == null ? null : starts[f]);
      if (options.raw()) {
        // Family markers were walked first; HBase interleaves them with an empty-qualifier column by timestamp.
        out.subList(familyStart, out.size()).sort(HBASE_ORDER);
      }
      nextKeys[f] = walk.nextKey;
      if (walk.filtered) {
        lastFiltered = f;
      }
      if (walk.filterDone) {
        closed[f] = true;
      }
      if (walk.hintRow != null) {
        return new Outcome(out, walk.hintRow, new byte[families.size()][], afterFamily, afterFrom, afterInclusive);
      }
      fromFamily = walk.hintFamily;
    }
    if (lastFiltered >= 0 && filter.filterAllRemaining()) {
      // HBase's store scanner asks filterAllRemaining before each key and, once it is true, closes itself for
      // the rest of the region's scan: the family where the filter gave out (at its next key, in this row or a
      // later one) and each later family with keys in this row (at its first). A filter whose reset revives it
      // (ColumnCountGetFilter) then reads the next rows without them.
      closed[lastFiltered] = true;
    }
    lastRowCells = out.size();
    return new Outcome(out, null, nextKeys, afterFamily, afterFrom, afterInclusive);
  }

  // Where HBase stands after the last cell returned so far (see After), kept as fields: it changes with every cell.
  private int afterFamily;
  private byte[] afterFrom;
  private boolean afterInclusive;

  /** The walk over one family's keys of a row ({@link #start} begins each row). */
  private final class FamilyWalk {
    private final int index;
    private final FamilyStore family;
    private final ReadFilter filter;
    private final List<byte[]> wanted;
    private final VersionTracker tracker;
    private byte[] row;
    private byte[] rowPrefix;
    private CellCursor cursor;
    private List<Cell> out;

    byte[] hintRow;
    byte[] hintFamily;
    /** The filter ruled out everything after (filterAllRemaining) at a key of this family's row. */
    boolean filterDone;
    /** The filter was offered a cell of this family. */
    boolean filtered;
    /** The first key past the row, when the walk ended by reaching it (END at the end of the database). */
    byte[] nextKey;
    private int familyCount;
    /** The last {@link #emit} put its cell into the row (past the family's offset). */
    private boolean added;

    FamilyWalk(int index, FamilyStore family, ReadFilter filter) {
      this.index = index;
      this.family = family;
      this.filter = filter;
      this.wanted = options.columns().qualifiers(family.name());
      this.tracker = new VersionTracker(family.schema(), options.timeRange(family.name()), now);
    }

    /** Sets the walk up for {@code row}, read with {@code cursor}, its cells added to {@code out}. */
    void start(byte[] row, byte[] rowPrefix, CellCursor cursor, List<Cell> out) {
      this.row = row;
      this.rowPrefix = rowPrefix;
      this.cursor = cursor;
      this.out = out;
      hintRow = null;
      hintFamily = null;
      filterDone = false;
      filtered = false;
      nextKey = null;
      familyCount = 0;
      added = false;
      tracker.startRow();
      // Moves read keys only when older versions the read skips may lie ahead; a visible cell's value is then read
      // as a second step. When the read wants every version the family keeps, nearly every put it reaches is
      // returned, so each move brings the value along (one cursor step per cell instead of two).
      cursor.valuesWithMoves(!options.raw() && options.maxVersions() >= family.schema().maxVersions());
    }

    /** {@code start}: see {@link RowReader#read}. */
    void run(byte[] start) {
      if (start == END) {
        nextKey = END;
        return;
      }
      if (!(start != null && current() || seek(CellKeyCodec.familyMarkerPrefix(row)))) {
        return;
      }
      if (!pastRowQuiet(cursor.key()) && filterDone()) {
        return; // HBase's store scanner asks before its first key of the row too, marker or cell
      }
      // Family markers come first in the row.
      int markersIncluded = 0;
      while (true) {
        byte[] k = cursor.key();
        if (pastRow(k)) {
          return;
        }
        CellKeyCodec.Key decoded = CellKeyCodec.decodeInRow(k, row, rowPrefix);
        if (!decoded.isFamilyMarker()) {
          break;
        }
        if (!options.raw()) {
          tracker.familyMarker(decoded.timestamp(), decoded.type());
        } else if (tracker.readRawFamilyMarker(decoded.timestamp(), decoded.type()) && wantsFamilyMarkers()) {
          // HBase files family markers under the empty qualifier: a raw read returns them as that column's cells.
          Cell marker = new Cell(row, family.name(), Bytes.EMPTY, decoded.timestamp(), decoded.type(), Bytes.EMPTY);
          if (filterDone()) {
            return;
          }
          filtered |= filter != null;
          Decision decision = filter == null ? Decision.INCLUDE : filter.filterCell(marker);
          switch (decision) {
            case NEXT_ROW:
              return;
            case SEEK_NEXT_USING_HINT:
              if (!followHint(filter.nextCellHint(marker), k)) {
                return;
              }
              continue;
            case SKIP:
            case NEXT_COL:
              break;
            default:
              if (filter != null && markersIncluded >= options.maxVersions()) {
                // After a filter HBase counts them as versions of the empty-qualifier column: the rest are left
                // out, but each is still offered to the filter (HBase steps through that column cell by cell,
                // as a family marker may lie anywhere in it), which a counting filter notices.
                if (decision == Decision.INCLUDE_AND_SEEK_NEXT_ROW) {
                  return;
                }
                break;
              }
              markersIncluded++;
              boolean more = emit(filter == null ? marker : filter.transformCell(marker));
              if (!more || decision == Decision.INCLUDE_AND_SEEK_NEXT_ROW) {
                noteAfter(null, false);
                return;
              }
              noteAfter(k, false);
          }
        }
        if (!next()) {
          return;
        }
      }
      // Wanted columns are sought from the first column on: usually the row starts with one, and no search is needed.
      int wantedIndex = 0;
      if (wanted != null && wanted.isEmpty()) {
        return;
      }
      byte[] column = null;
      int included = 0;
      while (true) {
        byte[] k = cursor.key();
        if (pastRow(k)) {
          return;
        }
        CellKeyCodec.Key decoded = CellKeyCodec.decodeInRow(k, row, rowPrefix);
        byte[] q = decoded.qualifier();
        if (column == null || !Arrays.equals(column, q)) {
          if (wanted != null) {
            while (wantedIndex < wanted.size() && Bytes.compare(wanted.get(wantedIndex), q) < 0) {
              wantedIndex++;
            }
            if (wantedIndex == wanted.size()) {
              return;
            }
            if (Bytes.compare(wanted.get(wantedIndex), q) > 0) {
              if (!seekInRow(CellKeyCodec.columnPrefix(row, wanted.get(wantedIndex)))) {
                return;
              }
              continue;
            }
          }
          column = q;
          included = 0;
          tracker.startColumn();
        }
        Verdict verdict = options.raw()
            ? rawVersionsLeft(decoded.type(), included) ? tracker.readRaw(decoded.timestamp(), decoded.type())
                : Verdict.NO_MORE_IN_COLUMN
            : tracker.read(decoded.timestamp(), decoded.type());
        if (verdict == Verdict.NO) {
          if (!next()) {
            return;
          }
          continue;
        }
        if (verdict == Verdict.NO_MORE_IN_COLUMN) {
          if (!nextColumn(k, q)) {
            return;
          }
          continue;
        }
        Cell cell = cursor.cell(row, family.name(), q, decoded.timestamp(), decoded.type());
        if (cell == null) {
          // Deleted since the cursor reached it (possible only in an optimistic read, which the caller redoes).
          if (!next()) {
            return;
          }
          continue;
        }
        if (filterDone()) {
          return;
        }
        filtered |= filter != null;
        Decision decision = filter == null ? Decision.INCLUDE : filter.filterCell(cell);
        switch (decision) {
          case SKIP:
            if (!next()) {
              return;
            }
            continue;
          case NEXT_COL:
            if (!nextColumn(k, q)) {
              return;
            }
            continue;
          case NEXT_ROW:
            // As in HBase, where each family is its own store scanner: done with this family's part of the row.
            return;
          case SEEK_NEXT_USING_HINT:
            if (!followHint(filter.nextCellHint(cell), k)) {
              return;
            }
            continue;
          default:
            break;
        }
        if (filter != null && included >= options.maxVersions()) {
          // HBase counts versions after the filter: it offers the filter one more version, then leaves the column.
          if (decision == Decision.INCLUDE_AND_SEEK_NEXT_ROW || !nextColumn(k, q)) {
            return;
          }
          continue;
        }
        if (countsAsVersion(decoded.type())) {
          included++;
        }
        if (!emit(filter == null ? cell : filter.transformCell(cell))) {
          noteAfter(null, false);
          return;
        }
        if (decision == Decision.INCLUDE_AND_SEEK_NEXT_ROW) {
          noteAfter(null, false);
          return;
        }
        noteAfterCell(k, q, decision, included);
        if (decision == Decision.INCLUDE_AND_NEXT_COL || columnFull(included)) {
          if (!nextColumn(k, q)) {
            return;
          }
          continue;
        }
        if (!next()) {
          return;
        }
      }
    }

    /**
     * Notes where HBase's store scanner goes after including this cell: a named column with all its versions
     * moves to the next named column (past the row after the last one); a filter's "next column" to the column's
     * end; anything else (HBase's wildcard tracker never skips ahead after an include) to the next key.
     */
    private void noteAfterCell(byte[] k, byte[] q, Decision decision, int included) {
      if (wanted != null && filter == null && included >= options.maxVersions()) {
        int i = 0;
        while (i < wanted.size() && Bytes.compare(wanted.get(i), q) <= 0) {
          i++;
        }
        noteAfter(i < wanted.size() ? CellKeyCodec.columnPrefix(row, wanted.get(i)) : null, true);
      } else if (decision == Decision.INCLUDE_AND_NEXT_COL && wanted == null) {
        noteAfter(CellKeyCodec.columnEnd(row, q), true);
      } else {
        noteAfter(k, false);
      }
    }

    /** Records {@link After} for the cell just emitted, if the family's offset let it into the row. */
    private void noteAfter(byte[] from, boolean inclusive) {
      if (added) {
        afterFamily = index;
        afterFrom = from;
        afterInclusive = inclusive;
      }
    }

    /**
     * HBase's version counting, which differs for raw reads: over a whole family without a filter (HBase's
     * wildcard column tracker) a marker is no version, so the markers after the last counted put are still
     * returned; over named columns, or after a filter (counted after it), every returned cell counts.
     */
    private boolean countsAsVersion(CellType type) {
      return !wildcardRaw() || type == CellType.PUT;
    }

    /** True when the column has all the versions the read wants, so the walk moves on to the next column. */
    private boolean columnFull(int included) {
      return filter == null && !wildcardRaw() && included >= options.maxVersions();
    }

    /** In a wildcard raw read, a put past the wanted versions ends the column (markers before it do not). */
    private boolean rawVersionsLeft(CellType type, int included) {
      return !wildcardRaw() || type != CellType.PUT || included < options.maxVersions();
    }

    private boolean wildcardRaw() {
      return options.raw() && wanted == null && filter == null;
    }

    /** HBase asks before every cell: once the filter rules out all that remains, the read ends, all families. */
    private boolean filterDone() {
      if (filter != null && filter.filterAllRemaining()) {
        filterDone = true;
        return true;
      }
      return false;
    }

    /** A raw read returns family markers unless it names columns without the empty qualifier. */
    private boolean wantsFamilyMarkers() {
      return wanted == null || wanted.stream().anyMatch(q -> q.length == 0);
    }

    /** Adds a cell subject to the per-family offset and limit; false when the family is done. */
    private boolean emit(Cell cell) {
      familyCount++;
      added = false;
      if (options.maxResultsPerFamily() == 0) {
        return false; // HBase counts the cell, then finds the family's limit already reached
      }
      if (familyCount <= options.offsetPerFamily()) {
        return true;
      }
      out.add(cell);
      added = true;
      int limit = options.maxResultsPerFamily();
      return limit < 0 || familyCount < options.offsetPerFamily() + limit;
    }

    /** Applies a filter's seek hint; false when this family's walk is over. */
    private boolean followHint(Cell hint, byte[] currentKey) {
      if (hint == null) {
        return next();
      }
      if (reversed && Bytes.compare(hint.row(), row) >= 0) {
        // HBase's reversed store scanner takes only hints that point backwards; it steps on from the others,
        // so it sees the markers a forward hint would have jumped (TimestampsFilter past a DeleteColumn).
        return next();
      }
      int rowCmp = Bytes.compare(hint.row(), row);
      if (rowCmp != 0) {
        if (rowCmp > 0) {
          hintRow = hint.row();
        }
        return false;
      }
      int famCmp = Bytes.compare(hint.family(), family.name());
      if (famCmp < 0) {
        return next(); // a hint behind this family (e.g. "first on row") cannot move the walk back
      }
      if (famCmp > 0) {
        hintFamily = hint.family();
        return false;
      }
      byte[] target = CellKeyCodec.columnAt(row, hint.qualifier(), hint.timestamp());
      if (Bytes.compare(target, currentKey) <= 0) {
        return next();
      }
      return seekInRow(target);
    }

    private boolean seek(byte[] target) {
      return moved(cursor.seek(target));
    }

    /** A seek after the walk's first, within the row it reads. */
    private boolean seekInRow(byte[] target) {
      return moved(cursor.seekInRow(target));
    }

    private boolean moved(boolean found) {
      nextKey = found ? null : END;
      return found;
    }

    /**
     * Moves to the first key after the column of {@code currentKey}. A column holds few versions (puts trim
     * it to VERSIONS), so a few steps usually leave it, where a search would descend the whole tree.
     */
    private boolean nextColumn(byte[] currentKey, byte[] qualifier) {
      int columnLength = currentKey.length - 9; // the key less its timestamp and type: the column's prefix
      for (int step = 0; step < COLUMN_STEPS; step++) {
        if (!next()) {
          return false;
        }
        if (!CellKeyCodec.sharesPrefix(cursor.key(), currentKey, columnLength)) {
          return true;
        }
      }
      return seekInRow(CellKeyCodec.columnEnd(row, qualifier));
    }

    /** Reads the key the cursor is on; false (the caller then searches) if it was deleted meanwhile. */
    private boolean current() {
      return cursor.refresh();
    }

    private boolean next() {
      if (oneRow) {
        boolean found = cursor.nextInRow();
        nextKey = null; // not looked at
        return found;
      }
      return moved(cursor.next());
    }

    private boolean pastRowQuiet(byte[] k) {
      return !CellKeyCodec.startsWith(k, rowPrefix);
    }

    /** The walk reached a key of a later row: remember it for the scanner's next-row search. */
    private boolean pastRow(byte[] k) {
      if (!CellKeyCodec.startsWith(k, rowPrefix)) {
        nextKey = k;
        return true;
      }
      return false;
    }
  }
}
