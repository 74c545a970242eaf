package io.basalt.storage.je;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.cell.CellType;
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
 * cleaned under its row lock in its own small transaction, so serving is never blocked for long. The periodic pass
 * skips families that cannot hold such cells (no delete since their last walk left no marker, no TTL): a walk reads
 * every record of the family, which on an update-only table was a full read of the region every pass for nothing.
 */
final class PurgePass {
  private final JeRegion region;

  PurgePass(JeRegion region) {
    this.region = region;
  }

  /**
   * Walks every family that may hold dead cells ({@link FamilyStore#mayHoldDeadCells}), or every family if
   * {@code everyFamily} (a major compaction); returns the cells removed.
   */
  long run(boolean everyFamily) {
    long removed = 0;
    Throttle throttle = new Throttle(region.config().collectorKeysPerSecond());
    try {
      for (FamilyStore f : region.familyStores()) {
        if (region.isClosing()) {
          break;
        }
        if (everyFamily || f.mayHoldDeadCells()) {
          removed += walk(f, throttle);
        }
      }
    } finally {
      region.adjustCellCount(-removed);
    }
    return removed;
  }

  /**
   * One family's walk. A family none of whose rows has a marker left after it, and no TTL, cannot hold a dead cell
   * until a delete writes one (puts trim their columns to VERSIONS as they go): it is marked so, and skipped by the
   * next passes until then.
   */
  private long walk(FamilyStore f, Throttle throttle) {
    long removed = 0;
    long now = region.now();
    KeyRange range = region.metadata().descriptor().range();
    f.walkStarted(); // a delete from now on marks it again
    boolean clean = false;
    boolean markersLeft = false;
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
        boolean kept;
        if (k.isFamilyMarker()) {
          kept = tracker.retainFamilyMarker(k.timestamp(), k.type());
          tracker.familyMarker(k.timestamp(), k.type());
        } else {
          if (column == null || !Arrays.equals(column, k.qualifier())) {
            column = k.qualifier();
            tracker.startColumn();
          }
          kept = tracker.retain(k.timestamp(), k.type()) == Verdict.YES;
        }
        rowHasDead |= !kept;
        markersLeft |= kept && k.type() != CellType.PUT; // may mask a put written later
        if (++scanned % 1000 == 0) {
          throttle.record(1000);
        }
        on = c.next();
      }
      if (rowHasDead) {
        removed += purgeRow(f, row, now);
      }
      clean = !markersLeft; // a TTL family is walked anyway (FamilyStore#mayHoldDeadCells)
      return removed;
    } finally {
      if (!clean) {
        f.mayHoldDeadCellsAgain();
      }
    }
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
