package io.basalt.storage.je;

import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Environment;
import com.sleepycat.je.TransactionConfig;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.lock.RowLocks;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A batch of row mutations written in parts, each part's rows in one JE transaction (one commit, one log
 * write); if that transaction fails, the part is written again row by row, each row atomic and failing alone,
 * the rows sharing one log write.
 */
final class BatchWriter {
  /**
   * Rows of a batch that share one log write, all their row locks held until it is done: enough to spread
   * its cost thin, few enough that readers of other rows seldom wait on a busy lock stripe.
   */
  private static final int MAX_BATCH_ROWS = 256;

  private final Environment env;
  private final RegionCatalog catalog;
  private final RowLocks locks;
  private final RowWriter writer;
  private final Map<Durability, TransactionConfig> commits;
  /** Commits of a batch before its last: into JE's log buffer, written (and acknowledged) with its last commit. */
  private final TransactionConfig noFlushCommit;
  private final boolean replicated;
  private final LongAdder rowsWritten;
  private final LongSupplier clock;

  BatchWriter(Environment env, RegionCatalog catalog, RowLocks locks, RowWriter writer,
      Map<Durability, TransactionConfig> commits, LongAdder rowsWritten, LongSupplier clock) {
    this.env = env;
    this.catalog = catalog;
    this.locks = locks;
    this.writer = writer;
    this.commits = commits;
    this.rowsWritten = rowsWritten;
    this.clock = clock;
    this.replicated = env instanceof com.sleepycat.je.rep.ReplicatedEnvironment;
    this.noFlushCommit = CommitPolicies.unflushed(replicated);
  }

  /** Leaves each mutation's failure, if any, at its index in {@code failures}; the caller keeps the region open. */
  void mutateBatch(List<RowMutation> mutations, Durability durability, RuntimeException[] failures) {
    for (int from = 0; from < mutations.size(); from += MAX_BATCH_ROWS) {
      applyBatchPart(mutations, from, Math.min(mutations.size(), from + MAX_BATCH_ROWS), durability, failures);
    }
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
        catalog.checkRow(m.row());
        for (Cell c : m.cells()) {
          catalog.family(c.family());
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
      if (valid.size() > 1 && appliedAsOne(valid, index, durability, failures)) {
        return;
      }
      boolean logWritten = false;
      for (int j = 0; j < valid.size(); j++) {
        RowMutation m = valid.get(j);
        boolean last = j == valid.size() - 1;
        try {
          writer.applyLocked(m.row(), m.cells(), clock.getAsLong(), last ? commits.get(durability) : noFlushCommit);
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
        } catch (DatabaseException | io.basalt.storage.error.ReplicasUnavailableException e) {
          // Whether the applied rows are durable is unknown: none may be acknowledged.
          for (int j = 0; j < valid.size(); j++) {
            if (failures[index[j]] == null) {
              failures[index[j]] = e instanceof DatabaseException d ? JeErrors.translate("log write", d)
                  : (RuntimeException) e;
            }
          }
        }
      }
    }
  }

  /**
   * Tries the part's valid rows as one JE transaction. True when that settled them: committed, or a commit that
   * failed or was not acknowledged by the replica group (then every row failed, as a single row's write would;
   * they must not be written again, as the commit may be in the log). False when the transaction was aborted, so
   * that the caller writes the rows one by one and only the row at fault fails (a failure inside a write, such as
   * a JE lock timeout, is rare: the rows are checked and locked).
   */
  private boolean appliedAsOne(List<RowMutation> valid, int[] index, Durability durability, RuntimeException[] failures) {
    try {
      writer.applyRowsLocked(valid, clock.getAsLong(), commits.get(durability));
      rowsWritten.add(valid.size());
      return true;
    } catch (com.sleepycat.je.rep.InsufficientAcksException e) {
      failAll(valid.size(), index, JeErrors.translate("write", e), failures);
      return true;
    } catch (RowWriter.CommitFailedException e) {
      RuntimeException cause = e.failure();
      failAll(valid.size(), index, cause instanceof DatabaseException d ? JeErrors.translate("commit", d) : cause, failures);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static void failAll(int rows, int[] index, RuntimeException failure, RuntimeException[] failures) {
    for (int j = 0; j < rows; j++) {
      failures[index[j]] = failure;
    }
  }

  /**
   * What a commit at {@code durability} does to the log, for commits made without it. In a replica group
   * nothing makes the secondaries acknowledge commits already made, so those rows are reported failed (they
   * may still be there, as after any write whose acknowledgement was lost).
   */
  private void writeLog(Durability durability) {
    if (replicated && (durability == Durability.SYNC_WAL || durability == Durability.FSYNC_WAL)) {
      throw new io.basalt.storage.error.ReplicasUnavailableException("the batch's last row failed, so the rows "
          + "before it were not acknowledged by the replica group; retry them", null);
    }
    switch (durability) {
      case SYNC_WAL -> env.flushLog(false);
      case FSYNC_WAL -> env.flushLog(true);
      default -> {
        // written by the background flush, as those commits are
      }
    }
  }
}
