package io.basalt.storage.je;

import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Environment;
import com.sleepycat.je.TransactionConfig;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.error.RegionClosedException;
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
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.RegionStats;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.segment.LogSegmentSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;

/**
 * A region on one JE environment: one JE database per column family, plus {@code basalt.meta}. Writers
 * hold their row's lock for the whole JE transaction; readers read uncommitted JE records under an
 * optimistic row lock, so they never wait on JE locks yet never see half a mutation.
 *
 * <p>This class owns the environment and the guard that keeps it open during an operation; the work is
 * done by {@link RegionCatalog} (metadata, family databases), {@link RowWriter} and {@link BatchWriter}
 * (writes), {@link RegionReads} and {@link JeScanner} (reads), {@link CellCounter}, {@link SplitPoint} and
 * {@link RegionLog} (segment sets, cleaning, log size).
 */
final class JeRegion implements Region {
  private final Path dir;
  private final Environment env;
  private final StorageConfig config;
  private final RowLocks locks = new RowLocks(1024);
  private final ReentrantReadWriteLock guard = new ReentrantReadWriteLock();
  private final LongAdder rowsRead = new LongAdder();
  private final LongAdder rowsWritten = new LongAdder();
  /**
   * Bumped after every change to stored keys, before the row lock is released: a scanner that sees it
   * unchanged knows its cursors still sit where the last row's walk left them (see JeScanner).
   */
  private final AtomicLong changes = new AtomicLong();
  /** Scanners holding JE cursors between calls: their cursors are closed before any family database is. */
  private final Set<JeScanner> cursorHolders = ConcurrentHashMap.newKeySet();
  private final boolean cursorsOutliveCalls;
  private final Runnable onClose;
  private final RegionCatalog catalog;
  private final CellCounter cellCount;
  private final RegionReads reads;
  private final RowWriter writer;
  private final BatchWriter batchWriter;
  private final BulkLoader bulkLoader;
  private final RegionLog log;
  /** Whether this copy takes writes: always alone; in a replica group, only while it is the primary. */
  private final BooleanSupplier writable;

  /** Key of the split barrier in {@code basalt.meta} (its value: when it was written). */
  private static final byte[] SPLIT_BARRIER_KEY = "split.barrier".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private volatile boolean closed;
  private volatile boolean closing;
  /** Writes stopped for good before a split of the replica group (see {@link #seal}). */
  private volatile boolean sealed;

  /**
   * {@code fresh}: a new, empty region, whose count (zero) is known without looking. {@code writable}: see
   * {@link #writable}; a copy that cannot write takes its layout from the log and leaves its count unknown.
   */
  JeRegion(Path dir, Environment env, StorageConfig config, StorageFiles files, RegionMetadata metadata, boolean fresh,
      BooleanSupplier writable, Runnable onClose) {
    this.dir = dir;
    this.env = env;
    this.config = config;
    this.writable = writable;
    this.onClose = onClose;
    Map<Durability, TransactionConfig> commits = CommitPolicies.of(env instanceof ReplicatedEnvironment);
    this.cursorsOutliveCalls = ReadCursors.outliveCalls(env);
    this.catalog = new RegionCatalog(env, metadata, commits.get(Durability.FSYNC_WAL));
    this.cellCount = new CellCounter(dir, env, catalog);
    boolean canWrite = writable.getAsBoolean();
    try {
      if (canWrite) {
        // Write only on change: a region on a full disk must still open for reads.
        catalog.storeIfChanged();
        // Without a saved count the engine counts in the background: counting reads the whole index, which
        // would make every open (a moved region, split daughters) cost seconds for a large region.
        cellCount.open(fresh);
      }
      catalog.openFamilies(canWrite);
    } catch (RuntimeException e) {
      catalog.closeDatabases();
      throw e;
    }
    this.reads = new RegionReads(catalog, locks, rowsRead, config.clock());
    this.writer = new RowWriter(env, catalog, locks, commits, cellCount, changes, rowsWritten, config.clock());
    this.batchWriter = new BatchWriter(env, catalog, locks, writer, commits, rowsWritten, config.clock());
    this.bulkLoader = new BulkLoader(catalog, locks, writer, commits, env instanceof ReplicatedEnvironment,
        rowsWritten, config.clock());
    this.log = new RegionLog(env, dir, files, this::isClosing);
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

  /** A write: refused once the region is sealed for a split (the client retries on a daughter). */
  private void enterWrite() {
    enter();
    if (sealed) {
      exit();
      throw new RegionClosedException("region " + dir + " is being split");
    }
  }

  /**
   * Stops writes for good, before a split of the replica group: writes in flight finish, later ones are
   * refused, background maintenance stops, and the close writes nothing. The cell count is saved, then a
   * barrier is committed with {@code barrierCommit} (every member acknowledging it), so that each member's
   * log ends at the same entry. If the barrier fails, writes resume and the failure is thrown.
   */
  void seal(TransactionConfig barrierCommit) {
    guard.writeLock().lock();
    try {
      if (closed) {
        throw new RegionClosedException("region " + dir + " is closed");
      }
      if (!writable()) {
        throw new io.basalt.storage.error.NotPrimaryException("sealing " + dir + " refused: this copy is not the "
            + "primary", null);
      }
      cellCount.save();
      sealed = true;
      try {
        Transactions.run(env, barrierCommit, txn -> catalog.metaDb().put(txn, new DatabaseEntry(SPLIT_BARRIER_KEY),
            new DatabaseEntry(Long.toString(now()).getBytes(java.nio.charset.StandardCharsets.US_ASCII))));
      } catch (DatabaseException e) {
        sealed = false;
        throw JeErrors.translate("the split barrier of " + dir, e);
      } catch (RuntimeException e) {
        sealed = false;
        throw e;
      }
    } finally {
      guard.writeLock().unlock();
    }
  }

  /** Lifts {@link #seal}: the split was called off and this copy serves writes again. */
  void unseal() {
    sealed = false;
  }

  boolean isSealed() {
    return sealed;
  }

  long now() {
    return config.clock().getAsLong();
  }

  // ---------------------------------------------------------------- accessors for maintenance

  Environment environment() {
    return env;
  }

  List<FamilyStore> familyStores() {
    return catalog.families();
  }

  RowLocks rowLocks() {
    return locks;
  }

  /**
   * How many changes to stored keys were made so far; see {@link #changes}. A secondary's keys change
   * under it as the primary's log is applied, unseen by this count, so there every call is a change.
   */
  long changeCount() {
    return writable() ? changes.get() : changes.incrementAndGet();
  }

  /** See {@link ReadCursors#outliveCalls}. */
  boolean cursorsOutliveCalls() {
    return cursorsOutliveCalls;
  }

  void holdsCursors(JeScanner scanner) {
    cursorHolders.add(scanner);
  }

  void releasedCursors(JeScanner scanner) {
    cursorHolders.remove(scanner);
  }

  /** JE refuses to close a database with cursors open: called with the guard held exclusively, before that. */
  private void releaseScannerCursors() {
    for (JeScanner scanner : List.copyOf(cursorHolders)) {
      scanner.releaseCursors();
    }
  }

  /** Whether this copy takes writes now. */
  boolean writable() {
    return !sealed && writable.getAsBoolean();
  }

  /** Records a change made outside {@link RowWriter#applyLocked}, before its row lock is released. */
  void countChange() {
    changes.incrementAndGet();
  }

  RegionMetadata metadata() {
    return catalog.metadata();
  }

  StorageConfig config() {
    return config;
  }

  void adjustCellCount(long delta) {
    cellCount.add(delta);
  }

  void markCollected() {
    catalog.markCollected();
  }

  // ---------------------------------------------------------------- Region

  @Override
  public RegionDescriptor descriptor() {
    return catalog.metadata().descriptor();
  }

  @Override
  public void mutate(RowMutation mutation, Durability durability) {
    mutateRow(mutation.row(), null, List.of(mutation), durability);
  }

  @Override
  public List<Cell> get(byte[] row, ReadOptions options) {
    enter();
    try {
      return reads.get(row, options);
    } finally {
      exit();
    }
  }

  @Override
  public RegionScanner scan(ScanSpec spec) {
    enter();
    try {
      List<FamilyStore> selected = catalog.selectFamilies(spec.read().columns());
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

  @Override
  public RowOutcome mutateRow(byte[] row, RowCondition condition, List<RowOperation> operations, Durability durability) {
    enterWrite();
    try {
      return writer.mutateRow(row, condition, operations, durability);
    } finally {
      exit();
    }
  }

  @Override
  public BatchResult mutateBatch(List<RowMutation> mutations, Durability durability) {
    RuntimeException[] failures = new RuntimeException[mutations.size()];
    enterWrite();
    try {
      batchWriter.mutateBatch(mutations, durability, failures);
    } finally {
      exit();
    }
    return new BatchResult(failures);
  }

  @Override
  public void load(List<RowMutation> rows, Durability durability) {
    enterWrite();
    try {
      bulkLoader.load(rows, durability);
    } finally {
      exit();
    }
  }

  // ---------------------------------------------------------------- elasticity primitives and stats

  @Override
  public Optional<byte[]> midpointRow() {
    enter();
    try {
      return SplitPoint.midpointRow(catalog.families(), catalog.range());
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
  public LogSegmentSet checkpointedSegments() {
    enter();
    try {
      log.checkpoint();
      return log.openSegmentSet(-1);
    } catch (DatabaseException e) {
      throw JeErrors.translate("checkpoint", e);
    } finally {
      exit();
    }
  }

  @Override
  public LogSegmentSet logSegmentsAfter(long afterSegment) {
    return openSegmentSet(afterSegment);
  }

  private LogSegmentSet openSegmentSet(long after) {
    enter();
    try {
      return log.openSegmentSet(after);
    } finally {
      exit();
    }
  }

  @Override
  public RegionStats stats() {
    return new RegionStats(log.logBytes(), cellCount.get(), catalog.metadata().pendingCollection(), rowsRead.sum(),
        rowsWritten.sum());
  }

  /** Counts the cells in range afresh; see {@link CellCounter#recount}. */
  void recount() {
    enter(); // close waits for a count in progress (JE refuses to close a database with an open cursor)
    try {
      cellCount.recount();
    } finally {
      exit();
    }
  }

  boolean cellCountKnown() {
    return cellCount.isKnown();
  }

  @Override
  public void alterFamilies(RegionDescriptor newDescriptor) {
    guard.writeLock().lock();
    try {
      if (closed) {
        throw new RegionClosedException("region " + dir + " is closed");
      }
      releaseScannerCursors();
      if (writable()) {
        catalog.alterFamilies(newDescriptor);
      } else {
        catalog.reload(); // the primary's change reaches this copy through the log
      }
      cellCount.recount();
    } catch (DatabaseException e) {
      throw JeErrors.translate("alter families", e);
    } finally {
      guard.writeLock().unlock();
    }
  }

  /**
   * This copy became its group's primary: it takes its layout from what the log holds now, and the engine
   * counts its cells afresh (the count did not follow the log while it was a secondary).
   */
  void promoted() {
    guard.writeLock().lock();
    try {
      if (!closed) {
        releaseScannerCursors();
        catalog.reload();
        if (writable()) {
          catalog.storeIfChanged(); // a daughter's range its log did not hold yet (see RegionCatalog#reload)
        }
      }
    } catch (DatabaseException e) {
      throw JeErrors.translate("taking over as primary", e);
    } finally {
      guard.writeLock().unlock();
    }
  }

  @Override
  public long maintain() {
    return maintain(false);
  }

  /** {@code everyFamily}: purge even the families that cannot hold dead cells (a major compaction walks them all). */
  private long maintain(boolean everyFamily) {
    enter();
    try {
      if (sealed) {
        return 0; // its log is being cloned for a split
      }
      long removed = 0;
      if (writable()) { // the primary's purges reach the other copies through the log
        if (catalog.metadata().pendingCollection()) {
          removed += new RangeCollector(this).run();
        }
        removed += new PurgePass(this).run(everyFamily);
      }
      // Every copy recovers from its own log: a secondary that went quiet checkpoints as the primary does.
      log.checkpointIfBehind();
      return removed;
    } catch (DatabaseException e) {
      throw JeErrors.translate("maintenance", e);
    } finally {
      exit();
    }
  }

  @Override
  public void flush() {
    enter();
    try {
      env.flushLog(true);
    } catch (DatabaseException e) {
      throw JeErrors.translate("flush", e);
    } finally {
      exit();
    }
  }

  @Override
  public io.basalt.storage.region.Compaction compact(boolean major) {
    long start = System.nanoTime();
    long before = log.logBytes(true);
    long removed = major ? maintain(true) : 0;
    enter();
    try {
      log.reclaimSpace();
      return new io.basalt.storage.region.Compaction(removed, before, log.logBytes(true),
          (System.nanoTime() - start) / 1_000_000);
    } catch (DatabaseException e) {
      throw JeErrors.translate("compaction", e);
    } finally {
      exit();
    }
  }

  /** See {@link RegionLog#reclaimSpace}. */
  void reclaimSpace() {
    log.reclaimSpace();
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
        releaseScannerCursors();
        if (!env.isValid()) {
          closeInvalid();
          return;
        }
        log.endSegmentSet();
        if (writable()) {
          cellCount.save();
        }
        env.flushLog(true);
        catalog.closeDatabases();
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

  /**
   * JE gave up on the environment (a replica group member that must roll back, say): its handles are
   * released without writing anything, so the directory can be opened again.
   */
  private void closeInvalid() {
    try {
      log.endSegmentSet();
      catalog.closeDatabases();
    } catch (RuntimeException e) {
      // the environment is gone already
    }
    try {
      env.close();
    } catch (RuntimeException e) {
      // as above
    }
  }

  /** See {@link RegionLog#isCleaning}. */
  boolean isCleaning() {
    return log.isCleaning();
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
