package io.basalt.storage.je;

import com.sleepycat.je.CacheMode;
import com.sleepycat.je.Transaction;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * One cursor per family database inside one transaction, opened on first use and reused by every write of
 * the transaction (JE's {@code Database.put} would open and close a cursor per record). Closed before commit.
 */
final class TxnCursors implements AutoCloseable {
  private final Transaction txn;
  private final CacheMode cacheMode;
  private final Map<FamilyStore, CellCursor> open = new IdentityHashMap<>(4);

  /** {@code cacheMode}: JE's for every cursor, null for the environment's. */
  TxnCursors(Transaction txn, CacheMode cacheMode) {
    this.txn = txn;
    this.cacheMode = cacheMode;
  }

  CellCursor of(FamilyStore family) {
    return open.computeIfAbsent(family, f -> f.openWrite(txn, cacheMode));
  }

  /** Stores every cursor's held-back writes, so reads of other cursors in the transaction see them. */
  void flush() {
    for (CellCursor c : open.values()) {
      c.flush();
    }
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (CellCursor c : open.values()) {
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
