package io.basalt.storage.je;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.schema.KeyRange;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many cells a region stores, for its stats: kept current by writes and purges, saved in
 * {@code basalt.meta} by a close and taken back by the next open, else counted afresh.
 */
final class CellCounter {
  // Under the region's logger: these are events of the region's open and close.
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JeRegion.class);

  private final Path dir;
  private final Environment env;
  private final RegionCatalog catalog;
  private final AtomicLong cellCount = new AtomicLong();
  /** False until the count is taken (from the last close's record or by counting): a close then saves it. */
  private volatile boolean cellCountKnown;

  CellCounter(Path dir, Environment env, RegionCatalog catalog) {
    this.dir = dir;
    this.env = env;
    this.catalog = catalog;
  }

  /** {@code fresh}: a new, empty region, whose count (zero) is known without looking. */
  void open(boolean fresh) {
    this.cellCountKnown = fresh || takeSavedCellCount();
  }

  /** Takes the count saved by the last close if it is for this range; the record is gone before any write. */
  private boolean takeSavedCellCount() {
    Database metaDb = catalog.metaDb();
    DatabaseEntry key = new DatabaseEntry(CellCountRecord.KEY);
    DatabaseEntry data = Cursors.entry();
    if (metaDb.get(null, key, data, LockMode.DEFAULT) != OperationStatus.SUCCESS) {
      return false;
    }
    try {
      Transactions.runNoSync(env, txn -> metaDb.delete(txn, key));
    } catch (RuntimeException e) {
      LOG.warn("{}: the saved cell count could not be removed ({}); counting instead", dir, e.toString());
      return false;
    }
    CellCountRecord saved = CellCountRecord.decode(data.getData());
    if (saved == null || !saved.range().equals(catalog.range())) {
      return false;
    }
    cellCount.set(saved.cells());
    return true;
  }

  void save() {
    if (!cellCountKnown) {
      return;
    }
    byte[] record = new CellCountRecord(cellCount.get(), catalog.range()).encode();
    try {
      Transactions.runNoSync(env,
          txn -> catalog.metaDb().put(txn, new DatabaseEntry(CellCountRecord.KEY), new DatabaseEntry(record)));
    } catch (RuntimeException e) {
      // A full disk, say: the next open counts instead.
      LOG.warn("{}: the cell count could not be saved ({})", dir, e.toString());
    }
  }

  /**
   * Counts the cells in range afresh by B+-tree skipping, no record fetches. Approximate while writes run
   * concurrently: a write the walk has passed is counted twice or not at all. The caller keeps the region
   * open meanwhile.
   */
  void recount() {
    KeyRange range = catalog.range();
    byte[] from = range.start().length == 0 ? null : CellKeyCodec.rowPrefix(range.start());
    byte[] to = range.end().length == 0 ? null : CellKeyCodec.rowPrefix(range.end());
    long n = 0;
    for (FamilyStore f : catalog.families()) {
      n += f.layout().countCells(f.db(), from, to);
    }
    cellCount.set(n);
    cellCountKnown = true;
  }

  void add(long delta) {
    cellCount.addAndGet(delta);
  }

  long get() {
    return cellCount.get();
  }

  boolean isKnown() {
    return cellCountKnown;
  }
}
