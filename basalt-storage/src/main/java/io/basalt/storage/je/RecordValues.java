package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DbInternal;
import com.sleepycat.je.dbi.CursorImpl;
import com.sleepycat.je.tree.BIN;
import com.sleepycat.je.tree.LN;

/**
 * The value of the record a JE cursor sits on, read where JE's cache holds it instead of copied out of it. JE's API
 * hands every read a fresh copy of the value ({@code LN.setEntry}): with PE's 1 KB rows that copy and its allocation
 * were 13% of a scan call's CPU. JE never changes a record's array once it holds it (an update installs a new array,
 * copied from the caller's), so the array read here is as stable as a copy would be; the caller must not change it.
 *
 * <p>This reaches into JE's internal cursor (as JE's own {@code getCurrent} does, under the leaf's latch): positioned
 * by a key-only move of the public API, which fetches no value, the cursor's leaf and slot name the record.
 */
final class RecordValues {
  private RecordValues() {}

  /**
   * The value of the record {@code cursor} sits on, fetched into JE's cache as the cursor's cache mode says; null if
   * the record was deleted since the cursor moved to it (the caller moves on, as JE's own steps skip such records).
   */
  static byte[] current(Cursor cursor) {
    CursorImpl impl = DbInternal.getCursorImpl(cursor);
    impl.latchBIN();
    try {
      BIN bin = impl.getBIN();
      int i = impl.getIndex();
      if (bin == null || i < 0 || i >= bin.getNEntries() || bin.isDefunct(i)) {
        return null;
      }
      if (bin.isEmbeddedLN(i) || bin.isNoDataLN(i)) {
        return bin.getData(i);
      }
      LN ln = bin.fetchLN(i, impl.getCacheMode());
      return ln == null ? null : ln.getData();
    } finally {
      impl.releaseBIN();
    }
  }
}
