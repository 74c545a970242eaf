package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import java.util.List;

/** Cursor helpers shared by reads, maintenance and statistics (the counts are of JE records). */
final class Cursors {
  private Cursors() {}

  /** One read cursor per family (see {@link CellLayout#openRead}). */
  static CellCursor[] open(List<FamilyStore> families) {
    CellCursor[] cursors = new CellCursor[families.size()];
    try {
      for (int i = 0; i < cursors.length; i++) {
        cursors[i] = families.get(i).openRead();
      }
    } catch (RuntimeException e) {
      close(cursors);
      throw e;
    }
    return cursors;
  }

  static void close(CellCursor[] cursors) {
    for (CellCursor c : cursors) {
      if (c != null) {
        c.close();
      }
    }
  }

  /** JE hands every read back in a freshly allocated array, so results may be kept. */
  static DatabaseEntry entry() {
    return new DatabaseEntry();
  }

  /** An entry that reads no data (keys only: JE then need not fetch the record). */
  static DatabaseEntry noData() {
    DatabaseEntry e = new DatabaseEntry();
    e.setPartial(0, 0, true);
    return e;
  }

  /** Number of keys at or after {@code from} (null = from the first key), counted by B+-tree skipping. */
  static long countFrom(Database db, byte[] from) {
    try (Cursor c = db.openCursor((Transaction) null, CursorConfig.READ_UNCOMMITTED)) {
      DatabaseEntry key = entry();
      DatabaseEntry data = noData();
      OperationStatus st;
      if (from == null || from.length == 0) {
        st = c.getFirst(key, data, LockMode.READ_UNCOMMITTED);
      } else {
        key.setData(from);
        st = c.getSearchKeyRange(key, data, LockMode.READ_UNCOMMITTED);
      }
      if (st != OperationStatus.SUCCESS) {
        return 0;
      }
      return 1 + c.skipNext(Long.MAX_VALUE, key, data, LockMode.READ_UNCOMMITTED);
    }
  }

  /** Keys in {@code [from, to)}; an empty bound is open. */
  static long countRange(Database db, byte[] from, byte[] to) {
    long n = countFrom(db, from);
    if (to != null && to.length > 0) {
      n -= countFrom(db, to);
    }
    return n;
  }
}
