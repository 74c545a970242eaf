package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.schema.KeyRange;

/**
 * Deletes the keys a cloned region holds outside its key range (the paper's GBCollector). JE has no range
 * delete, so keys go one by one, in small transactions, under a rate cap so serving is barely affected.
 * Out-of-range keys are invisible to reads from the moment the clone opens, so no row locks are needed.
 */
final class RangeCollector {
  private static final int BATCH = 1000;

  private final JeRegion region;

  RangeCollector(JeRegion region) {
    this.region = region;
  }

  /** Runs until every out-of-range key is gone (or the region starts closing); returns keys deleted. */
  long run() {
    KeyRange range = region.metadata().descriptor().range();
    Throttle throttle = new Throttle(region.config().collectorKeysPerSecond());
    long deleted = 0;
    for (FamilyStore f : region.familyStores()) {
      if (range.start().length > 0) {
        deleted += deleteRange(f, null, CellKeyCodec.rowPrefix(range.start()), throttle);
      }
      if (range.end().length > 0) {
        deleted += deleteRange(f, CellKeyCodec.rowPrefix(range.end()), null, throttle);
      }
      if (region.isClosing()) {
        return deleted;
      }
    }
    region.markCollected();
    region.reclaimSpace();
    return deleted;
  }

  /** Deletes every key in [from, below) (null = open), batch by batch, until none is left or closing. */
  private long deleteRange(FamilyStore f, byte[] from, byte[] below, Throttle throttle) {
    long total = 0;
    while (!region.isClosing()) {
      int n = batch(f, from, below, throttle);
      total += n;
      if (n < BATCH) {
        break;
      }
    }
    return total;
  }

  /** Deletes up to BATCH keys in [from, below) in one transaction. */
  private int batch(FamilyStore f, byte[] from, byte[] below, Throttle throttle) {
    int n = Transactions.runNoSync(region.environment(), txn -> {
      int deleted = 0;
      try (Cursor c = f.db().openCursor(txn, null)) {
        DatabaseEntry key = Cursors.entry();
        DatabaseEntry data = Cursors.noData();
        OperationStatus st;
        if (from == null) {
          st = c.getFirst(key, data, LockMode.DEFAULT);
        } else {
          key.setData(from);
          st = c.getSearchKeyRange(key, data, LockMode.DEFAULT);
        }
        while (st == OperationStatus.SUCCESS && deleted < BATCH
            && (below == null || Bytes.compare(key.getData(), below) < 0)) {
          c.delete();
          deleted++;
          st = c.getNext(key, data, LockMode.DEFAULT);
        }
      }
      return deleted;
    });
    throttle.record(n);
    return n;
  }
}
