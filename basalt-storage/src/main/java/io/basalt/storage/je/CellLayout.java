package io.basalt.storage.je;

import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.Transaction;

/**
 * How a family's cells map onto JE records, chosen per region by its format version ({@link RegionMetadata}).
 * Everything that walks or writes cells does it through the layout's {@link CellCursor}.
 */
enum CellLayout {
  /** Format 1: one JE record per cell version, keyed by its cell key. */
  CELL_RECORDS;

  /**
   * Non-sticky: JE moves the cursor itself instead of a clone per step (a clone is a cursor, a locker and a lock
   * record: most of a scan's allocation), and a failed move leaves it unpositioned, which every user allows for.
   */
  private static final CursorConfig READ = new CursorConfig().setReadUncommitted(true).setNonSticky(true);
  private static final CursorConfig WRITE = new CursorConfig().setNonSticky(true);

  static CellLayout ofFormat(int formatVersion) {
    if (formatVersion == 1) {
      return CELL_RECORDS;
    }
    throw new IllegalArgumentException("no cell layout for region format " + formatVersion);
  }

  /** A cursor reading without locks and outside any transaction. */
  CellCursor openRead(Database db) {
    return wrap(db.openCursor((Transaction) null, READ));
  }

  /** A cursor reading and writing inside {@code txn}; the caller holds the write locks of the rows it touches. */
  CellCursor openWrite(Database db, Transaction txn) {
    return wrap(db.openCursor(txn, WRITE));
  }

  private CellCursor wrap(com.sleepycat.je.Cursor c) {
    return new CellRecordCursor(c);
  }

  /** Cells with keys in {@code [from, to)} (null bounds are open), for statistics: counted, never fetched. */
  long countCells(Database db, byte[] from, byte[] to) {
    return Cursors.countRange(db, from, to);
  }
}
