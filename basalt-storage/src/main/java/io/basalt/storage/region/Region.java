package io.basalt.storage.region;

import io.basalt.storage.cell.Cell;
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
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.segment.LogSegmentSet;
import java.util.List;
import java.util.Optional;

/**
 * One region's store: the cells of a key range of one table, with HBase's semantics. Every operation on
 * one row is atomic and isolated; reads never see part of a mutation. Thread-safe.
 */
public interface Region extends AutoCloseable {
  RegionDescriptor descriptor();

  /** Applies all cells of the mutation atomically, durable as asked before returning. */
  void mutate(RowMutation mutation, Durability durability);

  /**
   * Applies each mutation as if by {@link #mutate} in list order, each atomic and isolated on its own row, and
   * each failing on its own (a bad family or row fails that mutation only), all durable as asked before
   * returning. Cheaper than one {@code mutate} per row: the batch shares log writes and commits.
   */
  BatchResult mutateBatch(List<RowMutation> mutations, Durability durability);

  /**
   * A bulk import's batch: puts with explicit timestamps of many rows, written in a few large transactions, the
   * last durable as asked. Every row is checked (range, families) before any is written; each row is atomic and
   * isolated. If it throws, some rows may have been written: the batch must be sent again, which is harmless as
   * the same row, column and timestamp make the same cell.
   */
  void load(List<RowMutation> rows, Durability durability);

  /** The visible cells of one row, in HBase order; empty if none. */
  List<Cell> get(byte[] row, ReadOptions options);

  RegionScanner scan(ScanSpec spec);

  /** Returns the new counter cells (empty when {@code returnResults} is false). */
  List<Cell> increment(Increment increment, Durability durability);

  /** Returns the new cells (empty when {@code returnResults} is false). */
  List<Cell> append(Append append, Durability durability);

  /** Applies {@code mutation} only if {@code condition} holds, both under the row lock; returns whether it did. */
  boolean checkAndMutate(byte[] row, RowCondition condition, RowMutation mutation, Durability durability);

  /**
   * Applies puts, deletes, increments and appends of one row as one atomic update, if {@code condition}
   * (null for none) holds under the row lock. Operations apply in order: an increment sees an earlier
   * increment of the same column in the same update.
   */
  RowOutcome mutateRow(byte[] row, RowCondition condition, List<RowOperation> operations, Durability durability);

  /**
   * The row splitting the region's cells in two halves, found by skipping half the keys of the largest
   * family with a B+-tree cursor; empty when the region cannot be split (one row, empty, or keys outside
   * its range not yet collected).
   */
  Optional<byte[]> midpointRow();

  /**
   * The log segments holding the region's data up to now, as an immutable set: the region keeps serving
   * and writes go to newer segments, but none of these is changed or deleted until the set is closed.
   * Log cleaning is paused meanwhile, so newer segments hold only what clients write. One set at a time.
   */
  LogSegmentSet logSegments();

  /**
   * {@link #logSegments()} after a checkpoint, for a snapshot: a copy of the set then opens without replaying the
   * log written since the previous checkpoint (seconds per hundred MB). The region serves meanwhile; the
   * checkpoint writes the cache's changed B+-tree nodes first, so it costs in proportion to recent writes.
   */
  LogSegmentSet checkpointedSegments();

  /** Like {@link #logSegments()} but only segments newer than {@code afterSegment} (for incremental copies). */
  LogSegmentSet logSegmentsAfter(long afterSegment);

  RegionStats stats();

  /** Changes families: new ones are added, missing ones dropped with their data, settings updated. */
  void alterFamilies(RegionDescriptor newDescriptor);

  /**
   * One pass of background maintenance, normally run on a schedule: removes keys outside the key range
   * (bounded rate) and cells no read can return any more, and bounds what a crash would leave to recover.
   * Returns the number of entries removed.
   */
  long maintain();

  /**
   * HBase's flush, as far as it applies to a log-structured store with no memstore: forces the region's log
   * to disk (write and fsync), so every write acknowledged so far survives a power loss.
   */
  void flush();

  /**
   * HBase's compaction. Runs the JE cleaner over the region's log and checkpoints, so segments whose live data
   * fell low are rewritten and deleted; {@code major} first purges what no read can return (as
   * {@link #maintain} does, on a copy that takes writes), which is what HBase's major compaction drops.
   * Runs in the caller's thread.
   */
  Compaction compact(boolean major);

  /**
   * Stops new operations, waits for in-flight ones, and closes (the log is synced). An open
   * {@link #logSegments()} set is ended first (JE cannot close with it open); list the closed directory
   * with {@link StorageEngine#closedSegments}.
   */
  @Override
  void close();
}
