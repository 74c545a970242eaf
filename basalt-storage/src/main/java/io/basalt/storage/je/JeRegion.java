package io.basalt.storage.je;

import com.sleepycat.je.CheckpointConfig;
import com.sleepycat.je.Cursor;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.EnvironmentMutableConfig;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Put;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.TransactionConfig;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.error.RegionClosedException;
import io.basalt.storage.error.RowOutOfRangeException;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.error.UnknownFamilyException;
import io.basalt.storage.io.StorageFiles;
import io.basalt.storage.lock.RowLocks;
import io.basalt.storage.mutation.Append;
import io.basalt.storage.mutation.BatchResult;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.Increment;
import io.basalt.storage.mutation.RowCondition;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.mutation.RowOperation;
import io.basalt.storage.mutation.RowOutcome;
import io.basalt.storage.read.ColumnSelection;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.read.VersionTracker;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.RegionStats;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.segment.LogSegmentSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;

/**
 * A region on one JE environment: one JE database per column family, plus {@code basalt.meta}. Writers
 * hold their row's lock for the whole JE transaction; readers read uncommitted JE records under an
 * optimistic row lock, so they never wait on JE locks yet never see half a mutation.
 */
final class JeRegion implements Region {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JeRegion.class);
  private static final String FAMILY_DB_PREFIX = "family:";
  /**
   * Rows of a batch that share one log write, all their row locks held until it is done: enough to spread
   * its cost thin, few enough that readers of other rows seldom wait on a busy lock stripe.
   */
  private static final int MAX_BATCH_ROWS = 256;

  private final Path dir;
  private final Environment env;
  private final StorageConfig config;
  private final StorageFiles files;
  private final Database metaDb;
  private final RowLocks locks = new RowLocks(1024);
  private final ReentrantReadWriteLock guard = new ReentrantReadWriteLock();
  private final AtomicLong cellCount = new AtomicLong();
  /** False until the count is taken (from the last close's record or by counting): a close then saves it. */
  private volatile boolean cellCountKnown;
  private final LongAdder rowsRead = new LongAdder();
  private final LongAdder rowsWritten = new LongAdder();
  /**
   * Bumped after every change to stored keys, before the row lock is released: a scanner that sees it
   * unchanged knows its cursors still sit where the last row's walk left them (see JeScanner).
   */
  private final AtomicLong changes = new AtomicLong();
  private final Map<Durability, TransactionConfig> txnConfigs = new EnumMap<>(Durability.class);
  /** Commits of a batch before its last: into JE's log buffer, written by the batch's last commit. */
  private final TransactionConfig noFlushCommit = Transactions.config(com.sleepycat.je.Durability.COMMIT_NO_SYNC);
  private final Object segmentsLock = new Object();
  private final Runnable onClose;

  private volatile RegionMetadata metadata;
  private volatile List<FamilyStore> families;
  private volatile boolean closed;
  private volatile boolean closing;
  private volatile long cachedLogBytes = -1;
  private volatile long cachedLogBytesAt;
  private JeLogSegmentSet activeSegmentSet;

  /** {@code fresh}: a new, empty region, whose count (zero) is known without looking. */
  JeRegion(Path dir, Environment env, StorageConfig config, StorageFiles files, RegionMetadata metadata, boolean fresh,
      Runnable onClose) {
    this.dir = dir;
    this.env = env;
    this.config = config;
    this.files = files;
    this.onClose = onClose;
    txnConfigs.put(Durability.SKIP_WAL, Transactions.config(com.sleepycat.je.Durability.COMMIT_NO_SYNC));
    txnConfigs.put(Durability.ASYNC_WAL, Transactions.config(com.sleepycat.je.Durability.COMMIT_NO_SYNC));
    txnConfigs.put(Durability.SYNC_WAL, Transactions.config(com.sleepycat.je.Durability.COMMIT_WRITE_NO_SYNC));
    txnConfigs.put(Durability.FSYNC_WAL, Transactions.config(com.sleepycat.je.Durability.COMMIT_SYNC));
    this.metaDb = env.openDatabase(null, RegionMetadata.DATABASE, dbConfig());
    this.metadata = metadata;
    try {
      // Write only on change: a region on a full disk must still open for reads.
      if (!java.util.Arrays.equals(storedMetadata(metaDb), metadata.encode())) {
        writeMetadata(metadata);
      }
      // Without a saved count the engine counts in the background: counting reads the whole index, which
      // would make every open (a moved region, split daughters) cost seconds for a large region.
      this.cellCountKnown = fresh || takeSavedCellCount();
      this.families = openFamilies(metadata.descriptor());
    } catch (RuntimeException e) {
      if (families != null) {
        families.forEach(f -> f.db().close());
      }
      metaDb.close();
      throw e;
    }
  }

  private static byte[] storedMetadata(Database db) {
    DatabaseEntry data = Cursors.entry();
    if (db.get(null, new DatabaseEntry(RegionMetadata.KEY), data, LockMode.DEFAULT) != OperationStatus.SUCCESS) {
      return null;
    }
    return data.getData();
  }

  /** Takes the count saved by the last close if it is for this range; the record is gone before any write. */
  private boolean takeSavedCellCount() {
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
    if (saved == null || !saved.range().equals(metadata.descriptor().range())) {
      return false;
    }
    cellCount.set(saved.cells());
    return true;
  }

  private void saveCellCount() {
    if (!cellCountKnown) {
      return;
    }
    byte[] record = new CellCountRecord(cellCount.get(), range()).encode();
    try {
      Transactions.runNoSync(env, txn -> metaDb.put(txn, new DatabaseEntry(CellCountRecord.KEY), new DatabaseEntry(record)));
    } catch (RuntimeException e) {
      // A full disk, say: the next open counts instead.
      LOG.warn("{}: the cell count could not be saved ({})", dir, e.toString());
    }
  }

  static RegionMetadata readMetadata(Environment env) {
    DatabaseConfig dc = dbConfig();
    dc.setAllowCreate(false);
    try (Database db = env.openDatabase(null, RegionMetadata.DATABASE, dc)) {
      byte[] stored = storedMetadata(db);
      if (stored == null) {
        throw new StorageException("region metadata missing in " + env.getHome());
      }
      return RegionMetadata.decode(stored);
    } catch (com.sleepycat.je.DatabaseNotFoundException e) {
      throw new StorageException(env.getHome() + " is not a Basalt region (no " + RegionMetadata.DATABASE + ")", e);
    }
  }

  private static DatabaseConfig dbConfig() {
    DatabaseConfig dc = new DatabaseConfig();
    dc.setAllowCreate(true);
    dc.setTransactional(true);
    dc.setKeyPrefixing(true);
    return dc;
  }

  private static String familyDbName(byte[] family) {
    return FAMILY_DB_PREFIX + HexFormat.of().formatHex(family);
  }

  private List<FamilyStore> openFamilies(RegionDescriptor descriptor) {
    List<FamilyStore> out = new ArrayList<>();
    for (FamilySchema f : descriptor.families()) {
      out.add(new FamilyStore(f, env.openDatabase(null, familyDbName(f.name()), dbConfig())));
    }
    return List.copyOf(out);
  }

  private void writeMetadata(RegionMetadata m) {
    Transactions.run(env, txnConfigs.get(Durability.FSYNC_WAL),
        txn -> metaDb.put(txn, new DatabaseEntry(RegionMetadata.KEY), new DatabaseEntry(m.encode())));
    metadata = m;
  }

  // ---------------------------------------------------------------- guard

  private void enter() {
    guard.readLock().lock();
    if (closed) {
      guard.readLock().unlock();
      throw new RegionClosedException("region " + dir + " is closed");
    }
  }

  private void exit() {
    guard.readLock().unlock();
  }

  long now() {
    return config.clock().getAsLong();
  }

  // ---------------------------------------------------------------- accessors for maintenance

  Environment environment() {
    return env;
  }

  List<FamilyStore> familyStores() {
    return families;
  }

  RowLocks rowLocks() {
    return locks;
  }

  /** How many changes to stored keys were made so far; see {@link #changes}. */
  long changeCount() {
    return changes.get();
  }

  /** Records a change made outside {@link #applyLocked}, before its row lock is released. */
  void countChange() {
    changes.incrementAndGet();
  }

  RegionMetadata metadata() {
    return metadata;
  }

  StorageConfig config() {
    return config;
  }

  void adjustCellCount(long delta) {
    cellCount.addAndGet(delta);
  }

  void markCollected() {
    writeMetadata(new RegionMetadata(metadata.descriptor(), false));
  }

  // ---------------------------------------------------------------- Region

  @Override
  public RegionDescriptor descriptor() {
    return metadata.descriptor();
  }

  private KeyRange range() {
    return metadata.descriptor().range();
  }

  private void checkRow(byte[] row) {
    if (row == null || row.length == 0) {
      throw new InvalidMutationException("Row length is 0");
    }
    if (!range().contains(row)) {
      throw new RowOutOfRangeException("row " + Bytes.toStringBinary(row) + " is outside region range " + range());
    }
  }

  private FamilyStore family(byte[] name) {
    for (FamilyStore f : families) {
      if (Bytes.compare(f.name(), name) == 0) {
        return f;
      }
    }
    throw new UnknownFamilyException("Column family " + Bytes.toStringBinary(name) + " does not exist in region");
  }

  /** The families a read touches, in name order; unknown named families are an error. */
  List<FamilyStore> selectFamilies(ColumnSelection columns) {
    if (columns.isAll()) {
      return families;
    }
    List<FamilyStore> out = new ArrayList<>();
    for (byte[] name : columns.namedFamilies()) {
      out.add(family(name));
    }
    return out;
  }

  @Override
  public void mutate(RowMutation mutation, Durability durability) {
    mutateRow(mutation.row(), null, List.of(mutation), durability);
  }

  @Override
  public List<Cell> get(byte[] row, ReadOptions options) {
    enter();
    try {
      checkRow(row);
      rowsRead.increment();
      RowReader reader = new RowReader(selectFamilies(options.columns()), options, now());
      if (options.filter() != null) {
        return withRowReadLock(row, () -> readWithRowFilter(reader, row));
      }
      return locks.readRow(row, () -> readWithRowFilter(reader, row));
    } catch (DatabaseException e) {
      throw JeErrors.translate("get", e);
    } finally {
      exit();
    }
  }

  /** Reads one row applying the filter's row-level calls in HBase's order. */
  static List<Cell> readWithRowFilter(RowReader reader, byte[] row, Cursor[] cursors) {
    return readRowFiltered(reader, row, cursors, null).cells();
  }

  /** {@code starts}: where the cursors already are, see {@link RowReader#read}. */
  static RowReader.Outcome readRowFiltered(RowReader reader, byte[] row, Cursor[] cursors, byte[][] starts) {
    var filter = reader.options().filter();
    if (filter != null) {
      filter.reset();
      if (filter.filterRowKey(row)) {
        return new RowReader.Outcome(List.of(), null, null);
      }
    }
    RowReader.Outcome outcome = reader.read(row, cursors, starts);
    if (filter == null) {
      return outcome;
    }
    List<Cell> cells = new ArrayList<>(outcome.cells());
    if (filter.hasFilterRow()) {
      filter.filterRowCells(cells);
      if (!cells.isEmpty() && filter.filterRow()) {
        cells.clear();
      }
    } else if (filter.filterRow()) {
      cells.clear();
    }
    return new RowReader.Outcome(cells, outcome.seekRow(), outcome.nextKeys());
  }

  private List<Cell> readWithRowFilter(RowReader reader, byte[] row) {
    Cursor[] cursors = Cursors.open(reader.families());
    try {
      return readWithRowFilter(reader, row, cursors);
    } finally {
      Cursors.close(cursors);
    }
  }

  @Override
  public RegionScanner scan(ScanSpec spec) {
    enter();
    try {
      List<FamilyStore> selected = selectFamilies(spec.read().columns());
      if (spec.batch() > 0 && spec.read().filter() != null && spec.read().filter().hasFilterRow()) {
        throw new IllegalArgumentException("Cannot set batch on a scan using a filter that returns true for filter.hasFilterRow");
      }
      return new JeScanner(this, spec, selected);
    } finally {
      exit();
    }
  }

  /** Runs one scanner batch with the region open; used by {@link JeScanner}. */
  <T> T whileOpen(java.util.function.Supplier<T> body) {
    enter();
    try {
      return body.get();
    } catch (DatabaseException e) {
      throw JeErrors.translate("scan", e);
    } finally {
      exit();
    }
  }

  @Override
  public List<Cell> increment(Increment increment, Durability durability) {
    return mutateRow(increment.row(), null, List.of(increment), durability).results();
  }

  @Override
  public List<Cell> append(Append append, Durability durability) {
    return mutateRow(append.row(), null, List.of(append), durability).results();
  }

  @Override
  public boolean checkAndMutate(byte[] row, RowCondition condition, RowMutation mutation, Durability durability) {
    return mutateRow(row, condition, List.of(mutation), durability).applied();
  }

  /** A new value for one column computed from its current one (null when absent). */
  private record ColumnChange(byte[] family, byte[] qualifier, java.util.function.UnaryOperator<byte[]> next) {}

  private static List<ColumnChange> changes(RowOperation op) {
    List<ColumnChange> out = new ArrayList<>();
    if (op instanceof Increment inc) {
      for (Increment.Delta d : inc.deltas()) {
        out.add(new ColumnChange(d.family(), d.qualifier(), prev -> {
          if (prev == null) {
            return Bytes.of(d.amount());
          }
          if (prev.length != 8) {
            throw new InvalidMutationException("Field is not a long, it's " + prev.length + " bytes wide");
          }
          return Bytes.of(Bytes.toLong(prev) + d.amount());
        }));
      }
    } else if (op instanceof Append app) {
      for (Append.Suffix sfx : app.suffixes()) {
        out.add(new ColumnChange(sfx.family(), sfx.qualifier(),
            prev -> prev == null ? sfx.value() : Bytes.concat(prev, sfx.value())));
      }
    }
    return out;
  }

  private static boolean returnsResults(RowOperation op) {
    return op instanceof Increment inc ? inc.returnResults() : op instanceof Append app && app.returnResults();
  }

  @Override
  public RowOutcome mutateRow(byte[] row, RowCondition condition, List<RowOperation> operations, Durability durability) {
    enter();
    try {
      checkRow(row);
      rowsWritten.increment();
      ColumnSelection.Builder readModifyWrite = ColumnSelection.builder();
      boolean readsColumns = false;
      for (RowOperation op : operations) {
        if (Bytes.compare(op.row(), row) != 0) {
          throw new InvalidMutationException("operation on row " + Bytes.toStringBinary(op.row())
              + " in an update of row " + Bytes.toStringBinary(row));
        }
        if (op instanceof RowMutation m) {
          for (Cell c : m.cells()) {
            family(c.family());
          }
        }
        for (ColumnChange c : changes(op)) {
          family(c.family());
          readModifyWrite.column(c.family(), c.qualifier());
          readsColumns = true;
        }
      }
      RowReader conditionReader = condition == null ? null
          : new RowReader(selectFamilies(condition.read().columns()), condition.read(), now());
      ColumnSelection columns = readsColumns ? readModifyWrite.build() : null;
      return withRowWriteLock(row, () -> {
        if (conditionReader != null && !condition.test(readWithRowFilter(conditionReader, row))) {
          return RowOutcome.NOT_APPLIED;
        }
        long now = now();
        Map<String, Cell> current = columns == null ? Map.of() : currentValues(row, columns, now);
        Map<String, Cell> latest = new LinkedHashMap<>(current);
        List<Cell> cells = new ArrayList<>();
        Map<String, Cell> computed = new LinkedHashMap<>();
        Map<String, Cell> results = new LinkedHashMap<>();
        for (RowOperation op : operations) {
          if (op instanceof RowMutation m) {
            cells.addAll(m.cells());
            continue;
          }
          for (ColumnChange c : changes(op)) {
            String id = columnId(c.family(), c.qualifier());
            Cell prev = latest.get(id);
            Cell next = Cell.put(row, c.family(), c.qualifier(), newCellTimestamp(now, prev),
                c.next().apply(prev == null ? null : prev.value()));
            latest.put(id, next);
            computed.put(id, next);
            if (returnsResults(op)) {
              results.put(id, next);
            }
          }
        }
        cells.addAll(computed.values());
        if (!cells.isEmpty()) {
          applyLocked(row, cells, now, durability);
        }
        return new RowOutcome(true, sortCells(new ArrayList<>(results.values())));
      });
    } finally {
      exit();
    }
  }

  /** HBase gives a read-modify-write cell "now", or just above the old cell if that is in the future. */
  private static long newCellTimestamp(long now, Cell prev) {
    return prev == null ? now : Math.max(now, prev.timestamp() + 1);
  }

  private static String columnId(byte[] family, byte[] qualifier) {
    return HexFormat.of().formatHex(family) + ":" + HexFormat.of().formatHex(qualifier);
  }

  private List<Cell> sortCells(List<Cell> cells) {
    List<Cell> sorted = new ArrayList<>(cells);
    sorted.sort((a, b) -> {
      int c = Bytes.compare(a.family(), b.family());
      return c != 0 ? c : Bytes.compare(a.qualifier(), b.qualifier());
    });
    return sorted;
  }

  private Map<String, Cell> currentValues(byte[] row, ColumnSelection sel, long now) {
    RowReader reader = new RowReader(selectFamilies(sel), ReadOptions.DEFAULT.withColumns(sel), now);
    Map<String, Cell> out = new TreeMap<>();
    for (Cell c : readWithRowFilter(reader, row)) {
      out.put(columnId(c.family(), c.qualifier()), c);
    }
    return out;
  }

  private <T> T withRowWriteLock(byte[] row, java.util.function.Supplier<T> body) {
    StampedLock lock = locks.forRow(row);
    long stamp = lock.writeLock();
    try {
      return body.get();
    } catch (DatabaseException e) {
      throw JeErrors.translate("write", e);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  private <T> T withRowReadLock(byte[] row, java.util.function.Supplier<T> body) {
    StampedLock lock = locks.forRow(row);
    long stamp = lock.readLock();
    try {
      return body.get();
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** Writes cells of one row in one JE transaction; the caller holds the row's write lock. */
  private void applyLocked(byte[] row, List<Cell> cells, long now, Durability durability) {
    applyLocked(row, cells, now, txnConfigs.get(durability));
  }

  private void applyLocked(byte[] row, List<Cell> cells, long now, TransactionConfig txnConfig) {
    Transaction txn = env.beginTransaction(null, txnConfig);
    boolean committed = false;
    long added = 0;
    try {
      try (TxnCursors cursors = new TxnCursors(txn)) {
        added = writeCells(cursors, row, cells, now);
      }
      txn.commit();
      committed = true;
    } finally {
      if (!committed) {
        txn.abort();
      } else {
        cellCount.addAndGet(added);
      }
      changes.incrementAndGet();
    }
  }

  /**
   * Writes the cells of one row mutation into an open transaction, LATEST timestamps resolved against
   * {@code now}, then trims the columns it put to their VERSIONS; returns the change in stored cells.
   */
  private long writeCells(TxnCursors cursors, byte[] row, List<Cell> cells, long now) {
    List<Cell> resolved = new ArrayList<>(cells.size());
    Map<String, Integer> latestDeletes = null;
    for (Cell c : cells) {
      if (c.timestamp() != RowMutation.LATEST) {
        resolved.add(c);
      } else if (c.type() == CellType.DELETE) {
        latestDeletes = latestDeletes == null ? new java.util.HashMap<>() : latestDeletes;
        int nth = latestDeletes.merge(columnId(c.family(), c.qualifier()), 1, Integer::sum);
        resolved.add(c.withTimestamp(latestVersion(c, nth, now)));
      } else {
        resolved.add(c.withTimestamp(now));
      }
    }
    long added = 0;
    // Columns put to, and whether each may now hold more than VERSIONS puts (as of its last put here).
    List<Cell> touchedColumns = new ArrayList<>(resolved.size());
    List<Boolean> mayExceed = new ArrayList<>(resolved.size());
    for (Cell c : resolved) {
      FamilyStore f = family(c.family());
      Cursor cursor = cursors.of(f);
      DatabaseEntry key = new DatabaseEntry(CellKeyCodec.encode(c));
      DatabaseEntry value = new DatabaseEntry(c.type() == CellType.PUT ? c.value() : Bytes.EMPTY);
      if (cursor.put(key, value, Put.NO_OVERWRITE, null) != null) {
        added++;
      } else {
        cursor.put(key, value, Put.OVERWRITE, null);
      }
      if (c.type() == CellType.PUT) {
        boolean exceeds = !fitsVersions(cursor, key.getData(), f.schema().maxVersions());
        int i = indexOfColumn(touchedColumns, c);
        if (i < 0) {
          touchedColumns.add(c);
          mayExceed.add(exceeds);
        } else {
          mayExceed.set(i, exceeds);
        }
      }
    }
    for (int i = 0; i < touchedColumns.size(); i++) {
      if (mayExceed.get(i)) {
        Cell c = touchedColumns.get(i);
        FamilyStore f = family(c.family());
        added -= trimColumn(cursors.of(f), f, row, c.qualifier(), now);
      }
    }
    return added;
  }

  /** A mutation touches few columns: a list scan beats building string keys for a map. */
  private static int indexOfColumn(List<Cell> cells, Cell c) {
    for (int i = 0; i < cells.size(); i++) {
      Cell o = cells.get(i);
      if (Bytes.compare(o.family(), c.family()) == 0 && Bytes.compare(o.qualifier(), c.qualifier()) == 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Whether the column of the key just put (the cursor is on it) holds no more than {@code maxVersions} puts,
   * found by stepping from the cursor without a B+-tree search. A put of the newest version (the usual one)
   * is the column's first key, so it takes a step back and the column's length forward. False (the caller
   * then trims, which searches) when the key is not the column's first or the column is too long.
   */
  private static boolean fitsVersions(Cursor cursor, byte[] putKey, int maxVersions) {
    byte[] column = CellKeyCodec.columnPrefixOf(putKey);
    DatabaseEntry key = Cursors.entry();
    DatabaseEntry data = Cursors.noData();
    OperationStatus st = cursor.getPrev(key, data, LockMode.READ_UNCOMMITTED);
    if (st != OperationStatus.SUCCESS || CellKeyCodec.startsWith(key.getData(), column)) {
      return false;
    }
    int puts = 0;
    st = cursor.getNext(key, data, LockMode.READ_UNCOMMITTED); // back on the key put
    while (st == OperationStatus.SUCCESS && CellKeyCodec.startsWith(key.getData(), column)) {
      if (CellKeyCodec.typeOf(key.getData()) == CellType.PUT && ++puts > maxVersions) {
        return false;
      }
      st = cursor.getNext(key, data, LockMode.READ_UNCOMMITTED);
    }
    return true;
  }

  @Override
  public BatchResult mutateBatch(List<RowMutation> mutations, Durability durability) {
    RuntimeException[] failures = new RuntimeException[mutations.size()];
    enter();
    try {
      for (int from = 0; from < mutations.size(); from += MAX_BATCH_ROWS) {
        applyBatchPart(mutations, from, Math.min(mutations.size(), from + MAX_BATCH_ROWS), durability, failures);
      }
    } finally {
      exit();
    }
    return new BatchResult(failures);
  }

  /**
   * Mutations {@code [from, to)} of a batch, under the write locks of all their rows. Each row is its own JE
   * transaction (so each is atomic and fails alone), but only the last commit writes the log: the others
   * commit without a flush, and JE writes its log buffers in log order, so the last commit's write (or
   * fsync) carries every commit before it. The rows stay locked until then, so no reader sees a row before
   * it is as durable as asked. If the last row fails, the log is flushed on its own for the others.
   */
  private void applyBatchPart(List<RowMutation> mutations, int from, int to, Durability durability,
      RuntimeException[] failures) {
    List<RowMutation> valid = new ArrayList<>(to - from);
    int[] index = new int[to - from];
    List<byte[]> rows = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      RowMutation m = mutations.get(i);
      try {
        checkRow(m.row());
        for (Cell c : m.cells()) {
          family(c.family());
        }
      } catch (RuntimeException e) {
        failures[i] = e;
        continue;
      }
      if (!m.isEmpty()) {
        index[valid.size()] = i;
        valid.add(m);
        rows.add(m.row());
      }
    }
    if (valid.isEmpty()) {
      return;
    }
    try (RowLocks.Held held = locks.writeLockAll(rows)) {
      boolean logWritten = false;
      for (int j = 0; j < valid.size(); j++) {
        RowMutation m = valid.get(j);
        boolean last = j == valid.size() - 1;
        try {
          applyLocked(m.row(), m.cells(), now(), last ? txnConfigs.get(durability) : noFlushCommit);
          rowsWritten.increment();
          logWritten = last;
        } catch (DatabaseException e) {
          failures[index[j]] = JeErrors.translate("write", e);
        } catch (RuntimeException e) {
          failures[index[j]] = e;
        }
      }
      if (!logWritten) {
        try {
          writeLog(durability);
        } catch (DatabaseException e) {
          // Whether the applied rows are durable is unknown: none may be acknowledged.
          for (int j = 0; j < valid.size(); j++) {
            if (failures[index[j]] == null) {
              failures[index[j]] = JeErrors.translate("log write", e);
            }
          }
        }
      }
    }
  }

  /** What a commit at {@code durability} does to the log, for commits made without it. */
  private void writeLog(Durability durability) {
    switch (durability) {
      case SYNC_WAL -> env.flushLog(false);
      case FSYNC_WAL -> env.flushLog(true);
      default -> {
        // written by the background flush, as those commits are
      }
    }
  }

  /**
   * A single-version delete at LATEST_TIMESTAMP masks the newest visible version of its column; the nth such
   * delete of one column in a mutation masks the nth newest. With no such version it lands at "now".
   */
  private long latestVersion(Cell c, int nth, long now) {
    ColumnSelection sel = ColumnSelection.builder().column(c.family(), c.qualifier()).build();
    RowReader reader = new RowReader(List.of(family(c.family())), ReadOptions.DEFAULT.withColumns(sel).withMaxVersions(nth), now);
    List<Cell> versions = readWithRowFilter(reader, c.row());
    return versions.size() < nth ? now : versions.get(nth - 1).timestamp();
  }

  /**
   * Deletes what a compaction would drop from one column right after a put, so a column never holds more
   * than VERSIONS surviving versions (reads are then independent of background timing). Cheap in the
   * common case: a key-only walk of the column, stopping when it holds no more than VERSIONS puts. The
   * walks read without JE locks: the caller holds the row's write lock, and every other writer of the row
   * (puts, purges) takes it too, so nothing else changes these keys meanwhile.
   */
  private long trimColumn(Cursor cursor, FamilyStore family, byte[] row, byte[] qualifier, long now) {
    byte[] prefix = CellKeyCodec.columnPrefix(row, qualifier);
    int maxVersions = family.schema().maxVersions();
    DatabaseEntry key = Cursors.entry();
    DatabaseEntry data = Cursors.noData();
    key.setData(prefix);
    int puts = 0;
    OperationStatus st = cursor.getSearchKeyRange(key, data, LockMode.READ_UNCOMMITTED);
    while (st == OperationStatus.SUCCESS && CellKeyCodec.startsWith(key.getData(), prefix)) {
      if (CellKeyCodec.typeOf(key.getData()) == CellType.PUT && ++puts > maxVersions) {
        break;
      }
      st = cursor.getNext(key, data, LockMode.READ_UNCOMMITTED);
    }
    if (puts <= maxVersions) {
      return 0;
    }
    VersionTracker tracker = new VersionTracker(family.schema(), io.basalt.storage.read.TimeRange.ALL, now);
    if (backToColumnStart(cursor, key, data, prefix, CellKeyCodec.rowPrefix(row))) {
      st = OperationStatus.SUCCESS;
    } else {
      // Family markers (or other columns) of the row come first: read the markers, then find the column again.
      byte[] markers = CellKeyCodec.familyMarkerPrefix(row);
      key.setData(markers);
      st = cursor.getSearchKeyRange(key, data, LockMode.READ_UNCOMMITTED);
      while (st == OperationStatus.SUCCESS && CellKeyCodec.startsWith(key.getData(), markers)) {
        CellKeyCodec.Key k = CellKeyCodec.decode(key.getData());
        tracker.familyMarker(k.timestamp(), k.type());
        st = cursor.getNext(key, data, LockMode.READ_UNCOMMITTED);
      }
      key.setData(prefix);
      st = cursor.getSearchKeyRange(key, data, LockMode.READ_UNCOMMITTED);
    }
    long removed = 0;
    while (st == OperationStatus.SUCCESS && CellKeyCodec.startsWith(key.getData(), prefix)) {
      CellKeyCodec.Key k = CellKeyCodec.decode(key.getData());
      if (tracker.retain(k.timestamp(), k.type()) != VersionTracker.Verdict.YES) {
        cursor.delete();
        removed++;
      }
      st = cursor.getNext(key, data, LockMode.READ_UNCOMMITTED);
    }
    return removed;
  }

  /**
   * Steps the cursor, inside a column, back to the column's first key (left in {@code key}) without a new
   * B+-tree search, if nothing of the same row precedes the column (so the row has no family markers, which
   * sort before its columns). Returns false, the cursor anywhere, if something of the row does.
   */
  private static boolean backToColumnStart(Cursor cursor, DatabaseEntry key, DatabaseEntry data, byte[] columnPrefix,
      byte[] rowPrefix) {
    OperationStatus st;
    do {
      st = cursor.getPrev(key, data, LockMode.READ_UNCOMMITTED);
    } while (st == OperationStatus.SUCCESS && CellKeyCodec.startsWith(key.getData(), columnPrefix));
    if (st == OperationStatus.SUCCESS) {
      if (CellKeyCodec.startsWith(key.getData(), rowPrefix)) {
        return false;
      }
      st = cursor.getNext(key, data, LockMode.READ_UNCOMMITTED);
    } else {
      // Nothing before the column: a failed move leaves the cursor on its first key.
      st = cursor.getCurrent(key, data, LockMode.READ_UNCOMMITTED);
    }
    return st == OperationStatus.SUCCESS && CellKeyCodec.startsWith(key.getData(), columnPrefix);
  }

  // ---------------------------------------------------------------- elasticity primitives and stats

  @Override
  public Optional<byte[]> midpointRow() {
    enter();
    try {
      KeyRange range = range();
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
    } catch (DatabaseException e) {
      throw JeErrors.translate("midpoint", e);
    } finally {
      exit();
    }
  }

  @Override
  public LogSegmentSet logSegments() {
    return openSegmentSet(-1);
  }

  @Override
  public LogSegmentSet logSegmentsAfter(long afterSegment) {
    return openSegmentSet(afterSegment);
  }

  private LogSegmentSet openSegmentSet(long after) {
    enter();
    try {
      synchronized (segmentsLock) {
        if (activeSegmentSet != null) {
          throw new IllegalStateException("a log segment set of " + dir + " is already open");
        }
        // The cleaner is paused while the set is open (the paper's PRE-CLOSE): cleaning would rewrite live
        // data into new segments, which a move must then ship while the region is unavailable.
        setCleaning(false);
        JeLogSegmentSet set;
        try {
          set = JeLogSegmentSet.start(env, dir, after, files, () -> {
            synchronized (segmentsLock) {
              activeSegmentSet = null;
            }
            if (!closing) {
              setCleaning(true); // not when closing: a cleaner run now would only lengthen the close
            }
          });
        } catch (RuntimeException e) {
          setCleaning(true);
          throw e;
        }
        activeSegmentSet = set;
        return set;
      }
    } catch (DatabaseException e) {
      throw JeErrors.translate("log segment listing", e);
    } finally {
      exit();
    }
  }

  @Override
  public RegionStats stats() {
    long now = System.nanoTime();
    if (cachedLogBytes < 0 || now - cachedLogBytesAt > 1_000_000_000L) {
      long total = 0;
      try {
        for (Path p : files.listSegments(dir)) {
          try {
            total += files.size(p);
          } catch (java.nio.file.NoSuchFileException gone) {
            // deleted by the cleaner while we listed
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      cachedLogBytes = total;
      cachedLogBytesAt = now;
    }
    return new RegionStats(cachedLogBytes, cellCount.get(), metadata.pendingCollection(), rowsRead.sum(),
        rowsWritten.sum());
  }

  /**
   * Counts the cells in range afresh by B+-tree skipping, no record fetches. Approximate while writes run
   * concurrently: a write the walk has passed is counted twice or not at all.
   */
  void recount() {
    enter(); // close waits for a count in progress (JE refuses to close a database with an open cursor)
    try {
      recountLocked();
    } finally {
      exit();
    }
  }

  private void recountLocked() {
    KeyRange range = range();
    byte[] from = range.start().length == 0 ? null : CellKeyCodec.rowPrefix(range.start());
    byte[] to = range.end().length == 0 ? null : CellKeyCodec.rowPrefix(range.end());
    long n = 0;
    for (FamilyStore f : families) {
      n += Cursors.countRange(f.db(), from, to);
    }
    cellCount.set(n);
    cellCountKnown = true;
  }

  boolean cellCountKnown() {
    return cellCountKnown;
  }

  @Override
  public void alterFamilies(RegionDescriptor newDescriptor) {
    guard.writeLock().lock();
    try {
      if (closed) {
        throw new RegionClosedException("region " + dir + " is closed");
      }
      RegionDescriptor updated = newDescriptor.withRange(range());
      for (FamilyStore f : families) {
        if (updated.family(f.name()).isEmpty()) {
          f.db().close();
          env.removeDatabase(null, familyDbName(f.name()));
        } else {
          f.db().close();
        }
      }
      writeMetadata(new RegionMetadata(updated, metadata.pendingCollection()));
      families = openFamilies(updated);
      recountLocked();
    } catch (DatabaseException e) {
      throw JeErrors.translate("alter families", e);
    } finally {
      guard.writeLock().unlock();
    }
  }

  @Override
  public long maintain() {
    enter();
    try {
      long removed = 0;
      if (metadata.pendingCollection()) {
        removed += new RangeCollector(this).run();
      }
      removed += new PurgePass(this).run();
      return removed;
    } catch (DatabaseException e) {
      throw JeErrors.translate("maintenance", e);
    } finally {
      exit();
    }
  }

  /** Asks JE to clean segments whose live data fell low, and to checkpoint so the cleaned ones go. */
  void reclaimSpace() {
    while (env.cleanLog() > 0) {
      // keep cleaning while files qualify
    }
    CheckpointConfig force = new CheckpointConfig();
    force.setForce(true);
    env.checkpoint(force);
    cachedLogBytes = -1;
  }

  /** True once close began: long background passes stop early so closing is quick. */
  boolean isClosing() {
    return closing;
  }

  @Override
  public void close() {
    closing = true;
    guard.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      try {
        endSegmentSet();
        saveCellCount();
        env.flushLog(true);
        for (FamilyStore f : families) {
          f.db().close();
        }
        metaDb.close();
        env.close();
      } catch (DatabaseException e) {
        throw JeErrors.translate("close", e);
      } finally {
        onClose.run();
      }
    } finally {
      guard.writeLock().unlock();
    }
  }

  private void setCleaning(boolean on) {
    EnvironmentMutableConfig c = env.getMutableConfig();
    c.setConfigParam(EnvironmentConfig.ENV_RUN_CLEANER, Boolean.toString(on));
    env.setMutableConfig(c);
  }

  /** Whether JE's cleaner daemon runs for this region (paused while a log segment set is open). */
  boolean isCleaning() {
    return Boolean.parseBoolean(env.getMutableConfig().getConfigParam(EnvironmentConfig.ENV_RUN_CLEANER));
  }

  /**
   * JE refuses to close an environment with a backup in progress, so closing the region ends its open
   * segment set: the files are then those of a closed directory, which nothing changes until it is opened
   * again ({@link io.basalt.storage.region.StorageEngine#closedSegments}).
   */
  private void endSegmentSet() {
    JeLogSegmentSet set;
    synchronized (segmentsLock) {
      set = activeSegmentSet;
    }
    if (set != null) {
      set.close();
    }
  }

  Path directory() {
    return dir;
  }

  /** A scanner returned one row (counted like a Get, as HBase's read request count does). */
  void countRowRead() {
    rowsRead.increment();
  }

  /** The JE environment's statistics, for the engine's totals; null once closed. */
  com.sleepycat.je.EnvironmentStats environmentStats(com.sleepycat.je.StatsConfig config) {
    if (closing || closed) {
      return null;
    }
    try {
      return env.getStats(config);
    } catch (DatabaseException | IllegalStateException e) {
      return null; // closed meanwhile
    }
  }
}
