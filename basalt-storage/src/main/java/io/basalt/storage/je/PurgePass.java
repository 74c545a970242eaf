package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.read.VersionTracker;
import io.basalt.storage.read.VersionTracker.Verdict;
import io.basalt.storage.schema.KeyRange;
import java.util.Arrays;
import java.util.concurrent.locks.StampedLock;

/**
 * Removes stored cells no read can return any more (what an HBase major compaction drops): versions past
 * VERSIONS, cells past TTL beyond MIN_VERSIONS, deleted cells (unless KEEP_DELETED_CELLS), and markers that
 * no longer mask anything. A key-only walk finds rows with such cells; each is then re-examined and
 * cleaned under its row lock in its own small transaction, so serving is never blocked for long.
 */
final class PurgePass {
  private final JeRegion region;

  PurgePass(JeRegion region) {
    this.region = region;
  }

  long run() {
    long removed = 0;
    Throttle throttle = new Throttle(region.config().collectorKeysPerSecond());
    KeyRange range = region.metadata().descriptor().range();
    for (FamilyStore f : region.familyStores()) {
      long now = region.now();
      try (Cursor c = f.db().openCursor((Transaction) null, CursorConfig.READ_UNCOMMITTED)) {
        DatabaseEntry key = Cursors.entry();
        DatabaseEntry data = Cursors.noData();
        OperationStatus st = range.start().length == 0
            ? c.getFirst(key, data, LockMode.READ_UNCOMMITTED)
            : seek(c, key, data, CellKeyCodec.rowPrefix(range.start()));
        byte[] endKey = range.end().length == 0 ? null : CellKeyCodec.rowPrefix(range.end());
        VersionTracker tracker = new VersionTracker(f.schema(), TimeRange.ALL, now);
        byte[] row = null;
        byte[] column = null;
        boolean rowHasDead = false;
        long scanned = 0;
        while (st == OperationStatus.SUCCESS && (endKey == null || Bytes.compare(key.getData(), endKey) < 0)) {
          if (region.isClosing()) {
            return removed;
          }
          CellKeyCodec.Key k = CellKeyCodec.decode(key.getData());
          if (row == null || !Arrays.equals(row, k.row())) {
            if (rowHasDead) {
              removed += purgeRow(f, row, now);
            }
            row = k.row();
            column = null;
            rowHasDead = false;
            tracker.startRow();
          }
          if (k.isFamilyMarker()) {
            rowHasDead |= !tracker.retainFamilyMarker(k.timestamp(), k.type());
            tracker.familyMarker(k.timestamp(), k.type());
          } else {
            if (column == null || !Arrays.equals(column, k.qualifier())) {
              column = k.qualifier();
              tracker.startColumn();
            }
            rowHasDead |= tracker.retain(k.timestamp(), k.type()) != Verdict.YES;
          }
          if (++scanned % 1000 == 0) {
            throttle.record(1000);
          }
          st = c.getNext(key, data, LockMode.READ_UNCOMMITTED);
        }
        if (rowHasDead) {
          removed += purgeRow(f, row, now);
        }
      }
    }
    region.adjustCellCount(-removed);
    return removed;
  }

  private static OperationStatus seek(Cursor c, DatabaseEntry key, DatabaseEntry data, byte[] target) {
    key.setData(target);
    return c.getSearchKeyRange(key, data, LockMode.READ_UNCOMMITTED);
  }

  /** Re-walks one row under its write lock and deletes what is dead now. */
  private long purgeRow(FamilyStore f, byte[] row, long now) {
    StampedLock lock = region.rowLocks().forRow(row);
    long stamp = lock.writeLock();
    try {
      return Transactions.runNoSync(region.environment(), txn -> {
        long removed = 0;
        try (Cursor c = f.db().openCursor(txn, null)) {
          DatabaseEntry key = Cursors.entry();
          DatabaseEntry data = Cursors.noData();
          byte[] prefix = CellKeyCodec.rowPrefix(row);
          key.setData(prefix);
          OperationStatus st = c.getSearchKeyRange(key, data, LockMode.DEFAULT);
          VersionTracker tracker = new VersionTracker(f.schema(), TimeRange.ALL, now);
          byte[] column = null;
          while (st == OperationStatus.SUCCESS && CellKeyCodec.startsWith(key.getData(), prefix)) {
            CellKeyCodec.Key k = CellKeyCodec.decode(key.getData());
            boolean dead;
            if (k.isFamilyMarker()) {
              dead = !tracker.retainFamilyMarker(k.timestamp(), k.type());
              tracker.familyMarker(k.timestamp(), k.type());
            } else {
              if (column == null || !Arrays.equals(column, k.qualifier())) {
                column = k.qualifier();
                tracker.startColumn();
              }
              dead = tracker.retain(k.timestamp(), k.type()) != Verdict.YES;
            }
            if (dead) {
              c.delete();
              removed++;
            }
            st = c.getNext(key, data, LockMode.DEFAULT);
          }
        }
        return removed;
      });
    } finally {
      region.countChange();
      lock.unlockWrite(stamp);
    }
  }
}
