package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.schema.KeyRange;
import java.util.List;
import java.util.Optional;

/** Where to split a region: the row halfway through the keys of its largest family, found by B+-tree skipping. */
final class SplitPoint {
  private SplitPoint() {}

  /** The caller keeps the region open. */
  static Optional<byte[]> midpointRow(List<FamilyStore> families, KeyRange range) {
    byte[] from = range.start().length == 0 ? null : CellKeyCodec.rowPrefix(range.start());
    byte[] to = range.end().length == 0 ? null : CellKeyCodec.rowPrefix(range.end());
    FamilyStore largest = null;
    long largestCount = 0;
    for (FamilyStore f : families) {
      long n = Cursors.countRange(f.db(), from, to);
      if (n > largestCount) {
        largest = f;
        largestCount = n;
      }
    }
    if (largest == null || largestCount < 2) {
      return Optional.empty();
    }
    try (Cursor c = largest.db().openCursor((Transaction) null, com.sleepycat.je.CursorConfig.READ_UNCOMMITTED)) {
      DatabaseEntry key = Cursors.entry();
      DatabaseEntry data = Cursors.noData();
      OperationStatus st;
      if (from == null) {
        st = c.getFirst(key, data, LockMode.READ_UNCOMMITTED);
      } else {
        key.setData(from);
        st = c.getSearchKeyRange(key, data, LockMode.READ_UNCOMMITTED);
      }
      if (st != OperationStatus.SUCCESS) {
        return Optional.empty();
      }
      byte[] firstRow = CellKeyCodec.decodeRow(key.getData());
      c.skipNext(largestCount / 2, key, data, LockMode.READ_UNCOMMITTED);
      byte[] mid = CellKeyCodec.decodeRow(key.getData());
      if (Bytes.compare(mid, firstRow) == 0) {
        // Half the keys are in the first row: split right after it, if anything follows.
        key.setData(CellKeyCodec.rowEnd(mid));
        if (c.getSearchKeyRange(key, data, LockMode.READ_UNCOMMITTED) != OperationStatus.SUCCESS) {
          return Optional.empty();
        }
        mid = CellKeyCodec.decodeRow(key.getData());
      }
      return range.contains(mid) && Bytes.compare(mid, range.start()) > 0 ? Optional.of(mid) : Optional.empty();
    }
  }
}
