package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.TransactionConfig;
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
        deleted += deleteBelow(f, CellKeyCodec.rowPrefix(range.start()), throttle);
      }
      if (range.end().length > 0) {
        deleted += deleteFrom(f, CellKeyCodec.rowPrefix(range.end()), throttle);
      }
      if (region.isClosing()) {
        return deleted;
      }
    }
    region.markCollected();
    region.reclaimSpace();
    return deleted;
  }

  private long deleteBelow(FamilyStore f, byte[] limit, Throttle throttle) {
    long total = 0;
    while (!region.isClosing()) {
      int n = batch(f, null, limit, throttle);
      total += n;
      if (n < BATCH) {
        break;
      }
    }
    return total;
  }

  private long deleteFrom(FamilyStore f, byte[] from, Throttle throttle) {
    long total = 0;
    while (!region.isClosing()) {
      int n = batch(f, from, null, throttle);
      total += n;
      if (n < BATCH) {
        break;
      }
    }
    return total;
  }

  /** Deletes up to BATCH keys in [from, below) in one transaction. */
  private int batch(FamilyStore f, byte[] from, byte[] below, Throttle throttle) {
    TransactionConfig tc = new TransactionConfig();
    tc.setDurability(com.sleepycat.je.Durability.COMMIT_NO_SYNC);
    Transaction txn = region.environment().beginTransaction(null, tc);
    int n = 0;
    boolean ok = false;
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
      while (st == OperationStatus.SUCCESS && n < BATCH
          && (below == null || Bytes.compare(key.getData(), below) < 0)) {
        c.delete();
        n++;
        st = c.getNext(key, data, LockMode.DEFAULT);
      }
      c.close();
      txn.commit();
      ok = true;
    } finally {
      if (!ok) {
        txn.abort();
      }
    }
    throttle.record(n);
    return n;
  }
}
