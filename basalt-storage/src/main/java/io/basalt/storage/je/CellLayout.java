package io.basalt.storage.je;

import com.sleepycat.je.CacheMode;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.Transaction;

/**
 * How a family's cells map onto JE records, chosen per region by its format version ({@link RegionMetadata}).
 * Everything that walks or writes cells does it through the layout's {@link CellCursor}.
 */
enum CellLayout {
  /** Format 1: one JE record per cell version, keyed by its cell key. */
  CELL_RECORDS,
  /** Format 2: one JE record per row of a family (a few for a wide row), see {@link RowChunk}. */
  ROW_RECORDS;

  private static final CursorConfig WRITE = new CursorConfig().setNonSticky(true);

  static CellLayout ofFormat(int formatVersion) {
    if (formatVersion == 1) {
      return CELL_RECORDS;
    }
    if (formatVersion == 2) {
      return ROW_RECORDS;
    }
    throw new IllegalArgumentException("no cell layout for region format " + formatVersion);
  }

  /** A cursor reading without locks and outside any transaction, on a JE cursor of {@code pool}, returned to it on close. */
  CellCursor wrapRead(ReadCursors pool) {
    com.sleepycat.je.Cursor c = pool.take();
    return this == CELL_RECORDS ? new CellRecordCursor(c, pool::giveBack)
        : new RowRecordCursor(c, false, RowRecordCursor.CHUNK_BYTES, pool::giveBack);
  }

  /**
   * A cursor reading and writing inside {@code txn}; the caller holds the write locks of the rows it touches.
   * {@code cacheMode}: JE's, null for the environment's.
   */
  CellCursor openWrite(Database db, Transaction txn, CacheMode cacheMode) {
    com.sleepycat.je.Cursor c = db.openCursor(txn, WRITE);
    if (cacheMode != null) {
      c.setCacheMode(cacheMode);
    }
    return wrap(c, true);
  }

  private CellCursor wrap(com.sleepycat.je.Cursor c, boolean writable) {
    return this == CELL_RECORDS ? new CellRecordCursor(c, com.sleepycat.je.Cursor::close)
        : new RowRecordCursor(c, writable, RowRecordCursor.CHUNK_BYTES, com.sleepycat.je.Cursor::close);
  }

  /** Cells with keys in {@code [from, to)} (null bounds are open), for statistics: counted, never fetched. */
  long countCells(Database db, byte[] from, byte[] to) {
    if (this == CELL_RECORDS) {
      return Cursors.countRange(db, from, to);
    }
    // Each record says how many cells it holds in its first bytes: read only those.
    long n = 0;
    try (com.sleepycat.je.Cursor c = db.openCursor((Transaction) null, ReadCursors.CONFIG)) {
      com.sleepycat.je.DatabaseEntry key = new com.sleepycat.je.DatabaseEntry();
      com.sleepycat.je.DatabaseEntry data = new com.sleepycat.je.DatabaseEntry();
      data.setPartial(0, 6, true);
      com.sleepycat.je.OperationStatus st;
      if (from == null) {
        st = c.getFirst(key, data, com.sleepycat.je.LockMode.READ_UNCOMMITTED);
      } else {
        key.setData(from);
        st = c.getSearchKeyRange(key, data, com.sleepycat.je.LockMode.READ_UNCOMMITTED);
      }
      while (st == com.sleepycat.je.OperationStatus.SUCCESS
          && (to == null || io.basalt.storage.cell.Bytes.compare(key.getData(), to) < 0)) {
        n += RowChunk.countOf(data.getData());
        st = c.getNext(key, data, com.sleepycat.je.LockMode.READ_UNCOMMITTED);
      }
    }
    return n;
  }
}
