package io.basalt.storage.je;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.lock.RowLocks;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.read.VersionTracker;
import io.basalt.storage.read.VersionTracker.Verdict;
import io.basalt.storage.schema.KeyRange;
import java.util.Arrays;

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
      try (CellCursor c = f.openRead()) {
        c.valuesWithMoves(false);
        boolean on = range.start().length == 0 ? c.first() : c.seek(CellKeyCodec.rowPrefix(range.start()));
        byte[] endKey = range.end().length == 0 ? null : CellKeyCodec.rowPrefix(range.end());
        VersionTracker tracker = new VersionTracker(f.schema(), TimeRange.ALL, now);
        byte[] row = null;
        byte[] column = null;
        boolean rowHasDead = false;
        long scanned = 0;
        while (on && (endKey == null || Bytes.compare(c.key(), endKey) < 0)) {
          if (region.isClosing()) {
            return removed;
          }
          CellKeyCodec.Key k = CellKeyCodec.decode(c.key());
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
          on = c.next();
        }
        if (rowHasDead) {
          removed += purgeRow(f, row, now);
        }
      }
    }
    region.adjustCellCount(-removed);
    return removed;
  }

  /** Re-walks one row under its write lock and deletes what is dead now. */
  private long purgeRow(FamilyStore f, byte[] row, long now) {
    try (RowLocks.Held held = region.rowLocks().writeLock(row)) {
      try {
        return purgeLocked(f, row, now);
      } finally {
        region.countChange(); // before the row's lock is released
      }
    }
  }

  private long purgeLocked(FamilyStore f, byte[] row, long now) {
    return Transactions.runNoSync(region.environment(), txn -> {
      long removed = 0;
      try (CellCursor c = f.openWrite(txn)) {
        c.valuesWithMoves(false);
        byte[] prefix = CellKeyCodec.rowPrefix(row);
        boolean on = c.seek(prefix);
        VersionTracker tracker = new VersionTracker(f.schema(), TimeRange.ALL, now);
        byte[] column = null;
        while (on && CellKeyCodec.startsWith(c.key(), prefix)) {
          CellKeyCodec.Key k = CellKeyCodec.decode(c.key());
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
          on = c.next();
        }
      }
      return removed;
    });
  }
}
