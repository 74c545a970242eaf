package io.basalt.storage.je;

import com.sleepycat.je.CacheMode;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.Transaction;
import io.basalt.storage.schema.FamilySchema;

/**
 * How a family's cells map onto JE records, chosen per region by its format version ({@link RegionMetadata}).
 * Everything that walks or writes cells does it through the layout's {@link CellCursor}.
 */
enum CellLayout {
  /** Format 1: one JE record per cell version, keyed by its cell key. */
  CELL_RECORDS,
  /** Format 2: one JE record per row of a family (a few for a wide row), see {@link RowChunk}. */
  ROW_RECORDS,
  /**
   * Format 3: row records, and a puts-only mutation of a stored row is written beside its record as a {@link RowDelta}
   * without reading it. Format 2's records are valid here: it adds a key shape format 2 never writes.
   */
  BLIND_ROW_RECORDS;

  private static final CursorConfig WRITE = new CursorConfig().setNonSticky(true);

  static CellLayout ofFormat(int formatVersion) {
    if (formatVersion == 1) {
      return CELL_RECORDS;
    }
    if (formatVersion == 2) {
      return ROW_RECORDS;
    }
    if (formatVersion == 3) {
      return BLIND_ROW_RECORDS;
    }
    throw new IllegalArgumentException("no cell layout for region format " + formatVersion);
  }

  /** Whether a region in this layout reads records written in {@code other} as they are (a merge copies them). */
  boolean reads(CellLayout other) {
    return other == this || this == BLIND_ROW_RECORDS && other == ROW_RECORDS;
  }

  /** A cursor reading without locks and outside any transaction, on a JE cursor of {@code pool}, returned to it on close. */
  CellCursor wrapRead(ReadCursors pool, FamilySchema schema) {
    com.sleepycat.je.Cursor c = pool.take();
    return this == CELL_RECORDS ? new CellRecordCursor(c, pool::giveBack)
        : new RowRecordCursor(c, false, RowRecordCursor.CHUNK_BYTES, deltasOf(schema), pool::giveBack);
  }

  /** The schema a cursor trims merged deltas by; null where the layout has no deltas. */
  private FamilySchema deltasOf(FamilySchema schema) {
    return this == BLIND_ROW_RECORDS ? schema : null;
  }

  /**
   * A cursor reading and writing inside {@code txn}; the caller holds the write locks of the rows it touches.
   * {@code cacheMode}: JE's, null for the environment's.
   */
  CellCursor openWrite(Database db, Transaction txn, CacheMode cacheMode, FamilySchema schema) {
    com.sleepycat.je.Cursor c = db.openCursor(txn, WRITE);
    if (cacheMode != null) {
      c.setCacheMode(cacheMode);
    }
    return this == CELL_RECORDS ? new CellRecordCursor(c, com.sleepycat.je.Cursor::close)
        : new RowRecordCursor(c, true, RowRecordCursor.CHUNK_BYTES, deltasOf(schema), com.sleepycat.je.Cursor::close);
  }

  /** Cells with keys in {@code [from, to)} (null bounds are open), for statistics: counted, never fetched. */
  long countCells(Database db, byte[] from, byte[] to) {
    if (this == CELL_RECORDS) {
      return Cursors.countRange(db, from, to);
    }
    // Each record says how many cells it holds in its first bytes: read only those (a delta's after its header).
    long n = 0;
    try (com.sleepycat.je.Cursor c = db.openCursor((Transaction) null, ReadCursors.CONFIG)) {
      com.sleepycat.je.DatabaseEntry key = new com.sleepycat.je.DatabaseEntry();
      com.sleepycat.je.DatabaseEntry data = new com.sleepycat.je.DatabaseEntry();
      data.setPartial(0, RowDelta.HEADER_BYTES + 6, true);
      com.sleepycat.je.OperationStatus st;
      if (from == null) {
        st = c.getFirst(key, data, com.sleepycat.je.LockMode.READ_UNCOMMITTED);
      } else {
        key.setData(from);
        st = c.getSearchKeyRange(key, data, com.sleepycat.je.LockMode.READ_UNCOMMITTED);
      }
      while (st == com.sleepycat.je.OperationStatus.SUCCESS
          && (to == null || io.basalt.storage.cell.Bytes.compare(key.getData(), to) < 0)) {
        n += RowChunk.countOf(data.getData(), RowDelta.isDelta(key.getData()) ? RowDelta.HEADER_BYTES : 0);
        st = c.getNext(key, data, com.sleepycat.je.LockMode.READ_UNCOMMITTED);
      }
    }
    return n;
  }
}
