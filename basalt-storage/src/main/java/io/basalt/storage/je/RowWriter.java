package io.basalt.storage.je;

import com.sleepycat.je.CacheMode;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Environment;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.TransactionConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.lock.RowLocks;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowCondition;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.mutation.RowOperation;
import io.basalt.storage.mutation.RowOutcome;
import io.basalt.storage.read.ColumnSelection;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.TimeRange;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The write path of one row: its operations (puts, deletes, increments, appends, under an optional
 * condition) read and written under the row's write lock, in one JE transaction, each column put to then
 * trimmed to its VERSIONS ({@link VersionTrimmer}).
 */
final class RowWriter {
  private final Environment env;
  private final RegionCatalog catalog;
  private final RowLocks locks;
  private final Map<Durability, TransactionConfig> commits;
  private final CellCounter cellCount;
  private final AtomicLong changes;
  private final LongAdder rowsWritten;
  private final LongSupplier clock;

  /** {@code changes}: the region's count of changes to stored keys, bumped before a row lock is released. */
  RowWriter(Environment env, RegionCatalog catalog, RowLocks locks, Map<Durability, TransactionConfig> commits,
      CellCounter cellCount, AtomicLong changes, LongAdder rowsWritten, LongSupplier clock) {
    this.env = env;
    this.catalog = catalog;
    this.locks = locks;
    this.commits = commits;
    this.cellCount = cellCount;
    this.changes = changes;
    this.rowsWritten = rowsWritten;
    this.clock = clock;
  }

  /** The caller keeps the region open. */
  RowOutcome mutateRow(byte[] row, RowCondition condition, List<RowOperation> operations, Durability durability) {
    catalog.checkRow(row);
    rowsWritten.increment();
    for (RowOperation op : operations) {
      if (Bytes.compare(op.row(), row) != 0) {
        throw new InvalidMutationException("operation on row " + Bytes.toStringBinary(op.row())
            + " in an update of row " + Bytes.toStringBinary(row));
      }
      if (op instanceof RowMutation m) {
        for (Cell c : m.cells()) {
          catalog.family(c.family());
        }
      }
      for (ColumnChange c : ColumnChange.of(op)) {
        catalog.family(c.family());
      }
    }
    RowReader conditionReader = condition == null ? null
        : new RowReader(catalog.selectFamilies(condition.read().columns()), condition.read(), clock.getAsLong());
    return withRowWriteLock(row, () -> {
      long checkedTimestamp = 0;
      if (conditionReader != null) {
        List<Cell> checked = RegionReads.readWithRowFilter(conditionReader, row);
        if (!condition.test(checked)) {
          return RowOutcome.NOT_APPLIED;
        }
        checkedTimestamp = checked.isEmpty() ? 0 : checked.get(0).timestamp();
      }
      long now = clock.getAsLong();
      // As HBase: a conditional put's cells are never older than the cell its check read (HBASE-14054).
      long putNow = Math.max(now, checkedTimestamp);
      List<Cell> cells = new ArrayList<>();
      Map<String, Cell> computed = new LinkedHashMap<>();
      List<Cell> results = new ArrayList<>();
      for (RowOperation op : operations) {
        if (op instanceof RowMutation m) {
          for (Cell c : m.cells()) {
            boolean latestPut = c.type() == CellType.PUT && c.timestamp() == RowMutation.LATEST;
            cells.add(latestPut && putNow != now ? c.withTimestamp(putNow) : c);
          }
          continue;
        }
        List<ColumnChange> changes = ColumnChange.of(op);
        // As HBase: every change reads the row as stored before this update, never another change's result.
        Map<String, Cell> current = currentValues(row, changes, ColumnChange.timeRange(op), now);
        List<Cell> opResults = new ArrayList<>();
        for (ColumnChange c : changes) {
          String id = columnId(c.family(), c.qualifier());
          Cell prev = current.get(id);
          Cell next = Cell.put(row, c.family(), c.qualifier(), newCellTimestamp(now, prev, c.timestamp()),
              c.next().apply(prev == null ? null : prev.value()));
          computed.remove(id); // the last change of a column is the one stored
          computed.put(id, next);
          if (ColumnChange.returnsResults(op)) {
            opResults.add(next);
          }
        }
        results.addAll(sortCells(opResults)); // as HBase: each operation's cells sorted, operations in order
      }
      cells.addAll(computed.values());
      if (!cells.isEmpty()) {
        applyLocked(row, cells, now, durability);
      }
      return new RowOutcome(true, results);
    });
  }

  /**
   * HBase's timestamp for a read-modify-write cell: just above the current cell if that is at or after
   * now, else now; with no current cell, the client's timestamp if it gave one.
   */
  private static long newCellTimestamp(long now, Cell prev, long requested) {
    if (prev != null) {
      return Math.max(now, prev.timestamp() + 1);
    }
    return requested == RowMutation.LATEST ? now : requested;
  }

  private static String columnId(byte[] family, byte[] qualifier) {
    return HexFormat.of().formatHex(family) + ":" + HexFormat.of().formatHex(qualifier);
  }

  private static List<Cell> sortCells(List<Cell> cells) {
    List<Cell> sorted = new ArrayList<>(cells);
    sorted.sort((a, b) -> {
      int c = Bytes.compare(a.family(), b.family());
      return c != 0 ? c : Bytes.compare(a.qualifier(), b.qualifier());
    });
    return sorted;
  }

  /** The newest version inside {@code range} of each column {@code changes} name, by column id. */
  private Map<String, Cell> currentValues(byte[] row, List<ColumnChange> changes, TimeRange range, long now) {
    if (changes.isEmpty()) {
      return Map.of();
    }
    ColumnSelection.Builder columns = ColumnSelection.builder();
    changes.forEach(c -> columns.column(c.family(), c.qualifier()));
    ColumnSelection sel = columns.build();
    RowReader reader = new RowReader(catalog.selectFamilies(sel),
        ReadOptions.DEFAULT.withColumns(sel).withTimeRange(range), now);
    Map<String, Cell> out = new TreeMap<>();
    for (Cell c : RegionReads.readWithRowFilter(reader, row)) {
      out.put(columnId(c.family(), c.qualifier()), c);
    }
    return out;
  }

  private <T> T withRowWriteLock(byte[] row, java.util.function.Supplier<T> body) {
    try (RowLocks.Held held = locks.writeLock(row)) {
      return body.get();
    } catch (DatabaseException e) {
      throw JeErrors.translate("write", e);
    }
  }

  /** Writes cells of one row in one JE transaction; the caller holds the row's write lock. */
  private void applyLocked(byte[] row, List<Cell> cells, long now, Durability durability) {
    applyLocked(row, cells, now, commits.get(durability));
  }

  /** The same committed as {@code txnConfig} says (a batch's rows but its last: without a log write). */
  void applyLocked(byte[] row, List<Cell> cells, long now, TransactionConfig txnConfig) {
    inTransaction(txnConfig, null, cursors -> writeCells(cursors, row, cells, now), false);
  }

  /** A commit that failed: whether the transaction is in the log is unknown, so its writes must not be redone. */
  static final class CommitFailedException extends RuntimeException {
    CommitFailedException(RuntimeException cause) {
      super(cause.getMessage(), cause);
    }

    RuntimeException failure() {
      return (RuntimeException) getCause();
    }
  }

  /**
   * Several rows in one JE transaction: one commit, one log write and one set of cursors for all of them, where
   * a transaction per row costs a begin, a commit record and cursor opens per row. All or none are applied.
   * The caller holds every row's write lock. A failure of the commit itself (other than a missing acknowledgement,
   * thrown as is) comes as a {@link CommitFailedException}; any other failure left nothing behind.
   *
   * <p>Rows written in batches (a client's buffered puts, a bulk load) leave JE's cache as soon as they are written
   * ({@link CacheMode#EVICT_LN}); a read brings a record back. Kept, they filled the cache with records nobody had
   * read, which ZGC marks on every cycle: at 8 writer threads it fell behind (12-22 s of allocation stalls per 15 s
   * run, 2 GB heap, 512 MB cache; under 1 s evicted).
   */
  void applyRowsLocked(List<RowMutation> rows, long now, TransactionConfig txnConfig) {
    inTransaction(txnConfig, CacheMode.EVICT_LN, cursors -> {
      long added = 0;
      for (RowMutation m : rows) {
        added += writeCells(cursors, m.row(), m.cells(), now);
      }
      return added;
    }, true);
  }

  /** {@code writes} (returning the change in stored cells) in one transaction, committed as {@code txnConfig} says. */
  private void inTransaction(TransactionConfig txnConfig, CacheMode cacheMode,
      java.util.function.ToLongFunction<TxnCursors> writes, boolean markCommitFailures) {
    Transaction txn = env.beginTransaction(null, txnConfig);
    boolean committed = false;
    long added = 0;
    try {
      try (TxnCursors cursors = new TxnCursors(txn, cacheMode)) {
        added = writes.applyAsLong(cursors);
      }
      try {
        txn.commit();
      } catch (com.sleepycat.je.rep.InsufficientAcksException e) {
        committed = true; // here, though not acknowledged by enough of the group: the caller is told it failed
        throw e;
      } catch (RuntimeException e) {
        if (markCommitFailures) {
          throw new CommitFailedException(e);
        }
        throw e;
      }
      committed = true;
    } finally {
      if (!committed) {
        txn.abort();
      } else {
        cellCount.add(added);
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
    // Where the mutation is all puts, a column over its VERSIONS is trimmed at once, from where its put left the
    // cursor, instead of after the mutation from a new search (see VersionTrimmer.trimAfterPut).
    boolean putsOnly = true;
    for (Cell c : resolved) {
      putsOnly &= c.type() == CellType.PUT;
    }
    // Columns put to, and whether each may now hold more than VERSIONS puts (as of its last put here).
    List<Cell> touchedColumns = new ArrayList<>(resolved.size());
    List<Boolean> mayExceed = new ArrayList<>(resolved.size());
    for (Cell c : resolved) {
      FamilyStore f = catalog.family(c.family());
      CellCursor cursor = cursors.of(f);
      byte[] key = CellKeyCodec.encode(c);
      boolean isPut = c.type() == CellType.PUT;
      if (isPut ? cursor.put(key, c.valueArray(), c.valueOffset(), c.valueLength()) : cursor.put(key, Bytes.EMPTY, 0, 0)) {
        added++;
      }
      if (isPut) {
        boolean exceeds;
        if (putsOnly) {
          long trimmed = VersionTrimmer.trimAfterPut(cursor, f, key, now);
          exceeds = trimmed < 0; // undecided in one walk: trimColumn after the mutation
          added -= Math.max(trimmed, 0);
        } else {
          exceeds = !VersionTrimmer.fitsVersions(cursor, key, f.schema().maxVersions());
        }
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
        FamilyStore f = catalog.family(c.family());
        added -= VersionTrimmer.trimColumn(cursors.of(f), f, row, c.qualifier(), now);
      }
    }
    // A later row of the same transaction may read this one (a delete at LATEST reads the versions it masks).
    cursors.flush();
    if (!putsOnly) {
      // After the markers are in JE's tree: a purge walk that starts from now on sees them.
      for (Cell c : resolved) {
        if (c.type() != CellType.PUT) {
          catalog.family(c.family()).mayHoldDeadCellsAgain();
        }
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
   * A single-version delete at LATEST_TIMESTAMP masks the newest visible version of its column; the nth such
   * delete of one column in a mutation masks the nth newest. With no such version it lands at "now".
   */
  private long latestVersion(Cell c, int nth, long now) {
    ColumnSelection sel = ColumnSelection.builder().column(c.family(), c.qualifier()).build();
    RowReader reader = new RowReader(List.of(catalog.family(c.family())), ReadOptions.DEFAULT.withColumns(sel).withMaxVersions(nth), now);
    List<Cell> versions = RegionReads.readWithRowFilter(reader, c.row());
    return versions.size() < nth ? now : versions.get(nth - 1).timestamp();
  }
}
