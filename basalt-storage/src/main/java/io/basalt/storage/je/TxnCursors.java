package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Transaction;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * One cursor per family database inside one transaction, opened on first use and reused by every write of
 * the transaction (JE's {@code Database.put} would open and close a cursor per record). Closed before commit.
 */
final class TxnCursors implements AutoCloseable {
  private final Transaction txn;
  private final Map<FamilyStore, Cursor> open = new IdentityHashMap<>(4);

  TxnCursors(Transaction txn) {
    this.txn = txn;
  }

  /**
   * Non-sticky: JE then moves the cursor itself instead of a clone of it per step (a put and its version walk are
   * about five steps), and a failed step leaves it unpositioned, which every user of these cursors allows for.
   */
  private static final CursorConfig NON_STICKY = new CursorConfig().setNonSticky(true);

  Cursor of(FamilyStore family) {
    return open.computeIfAbsent(family, f -> f.db().openCursor(txn, NON_STICKY));
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (Cursor c : open.values()) {
      try {
        c.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    open.clear();
    if (first != null) {
      throw first;
    }
  }
}
