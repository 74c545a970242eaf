package io.basalt.storage.je;

import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.TransactionConfig;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.lock.RowLocks;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A bulk import's batch: puts of many rows, each with its own timestamp, written in large JE transactions
 * (one per part) instead of one per row. Every part holds the write locks of all its rows until it commits, so
 * a concurrent reader sees each row before or after the part, never half of it. Only the last part's commit
 * writes the log (and, in a replica group, waits for the majority's acknowledgement, which covers every
 * earlier commit: JE writes and replicates its log in order).
 *
 * <p>A failure leaves earlier parts written and reports the whole batch failed. That is safe because an import
 * gives every cell an explicit timestamp: sending the batch again writes the same keys with the same values.
 */
final class BulkLoader {
  /**
   * Rows per JE transaction: large enough that commit and locking costs vanish, small enough that one
   * transaction's record locks and undo stay in the cache and a reader waits for one part at most.
   */
  static final int MAX_PART_ROWS = 1024;
  /** Bytes per JE transaction, for wide rows. */
  static final long MAX_PART_BYTES = 4L << 20;

  private final RegionCatalog catalog;
  private final RowLocks locks;
  private final RowWriter writer;
  private final Map<Durability, TransactionConfig> commits;
  private final TransactionConfig unflushed;
  private final LongAdder rowsWritten;
  private final LongSupplier clock;

  BulkLoader(RegionCatalog catalog, RowLocks locks, RowWriter writer, Map<Durability, TransactionConfig> commits,
      boolean replicated, LongAdder rowsWritten, LongSupplier clock) {
    this.catalog = catalog;
    this.locks = locks;
    this.writer = writer;
    this.commits = commits;
    this.unflushed = CommitPolicies.unflushed(replicated);
    this.rowsWritten = rowsWritten;
    this.clock = clock;
  }

  /** Checks every row before writing any, so bad input (a row outside the region, a family) writes nothing. */
  void load(List<RowMutation> rows, Durability durability) {
    for (RowMutation m : rows) {
      catalog.checkRow(m.row());
      for (Cell c : m.cells()) {
        if (c.type() != CellType.PUT || c.timestamp() == RowMutation.LATEST) {
          // A delete or a "now" timestamp would make a resent batch write something else: not idempotent.
          throw new InvalidMutationException("a bulk load takes puts with explicit timestamps only, got " + c);
        }
        catalog.family(c.family());
      }
    }
    int from = 0;
    while (from < rows.size()) {
      int to = from;
      long bytes = 0;
      while (to < rows.size() && to - from < MAX_PART_ROWS && (to == from || bytes < MAX_PART_BYTES)) {
        bytes += weight(rows.get(to++));
      }
      boolean last = to == rows.size();
      writePart(rows.subList(from, to), last ? commits.get(durability) : unflushed);
      from = to;
    }
  }

  private void writePart(List<RowMutation> part, TransactionConfig commit) {
    List<byte[]> keys = new ArrayList<>(part.size());
    for (RowMutation m : part) {
      keys.add(m.row());
    }
    try (RowLocks.Held held = locks.writeLockAll(keys)) {
      writer.applyRowsLocked(part, clock.getAsLong(), commit);
      rowsWritten.add(part.size());
    } catch (DatabaseException e) {
      throw JeErrors.translate("bulk load", e);
    } catch (RowWriter.CommitFailedException e) {
      // Whether the part is in the log is unknown: the batch fails, and a rerun rewrites the same cells.
      throw e.failure() instanceof DatabaseException d ? JeErrors.translate("bulk load commit", d) : e.failure();
    }
  }

  private static long weight(RowMutation m) {
    long w = m.row().length;
    for (Cell c : m.cells()) {
      w += m.row().length + c.family().length + c.qualifier().length + (c.value() == null ? 0 : c.value().length) + 16;
    }
    return w;
  }
}
