package io.basalt.server.bulk;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.RowMutation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.client.AsyncTable;

/**
 * Parsed rows partitioned by region (the table's regions as the import began), each region's rows buffered
 * until a batch is full, then sorted and sent to the region's primary as one bulk load call. A region's
 * batches go one after another (so a row repeated in the input ends with its last line's cells, as in HBase),
 * different regions' at once; the bytes in buffers and in flight are bounded, blocking the reader.
 *
 * <p>Regions may split or move meanwhile: a batch is located by its first row when sent, the region takes
 * the rows inside its range and the rest are sent on, to wherever their first row now lives.
 */
final class RegionBatches {
  private static final Comparator<RowMutation> BY_ROW = (a, b) -> Bytes.compare(a.row(), b.row());

  private final AsyncTable<?> table;
  private final List<byte[]> families;
  private final byte[][] startKeys;
  private final long batchBytes;
  private final ImportProgress progress;
  private final ExecutorService encoders;
  /** Bytes that may be buffered or in flight; taken when a row is buffered, given back when it is loaded. */
  private final Semaphore budget;
  private final int maxPermits;
  private final List<List<RowMutation>> buffers = new ArrayList<>();
  private final long[] bufferedBytes;
  private final List<CompletableFuture<Void>> tails = new ArrayList<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  RegionBatches(AsyncTable<?> table, List<byte[]> families, byte[][] startKeys, long batchBytes, long maxBufferedBytes,
      ImportProgress progress, ExecutorService encoders) {
    this.table = table;
    this.families = families;
    this.startKeys = startKeys;
    this.batchBytes = batchBytes;
    this.progress = progress;
    this.encoders = encoders;
    this.maxPermits = (int) Math.min(Integer.MAX_VALUE, Math.max(batchBytes, maxBufferedBytes));
    this.budget = new Semaphore(maxPermits);
    this.bufferedBytes = new long[startKeys.length];
    for (int i = 0; i < startKeys.length; i++) {
      buffers.add(new ArrayList<>());
      tails.add(CompletableFuture.completedFuture(null));
    }
  }

  /** Buffers one row, sending its region's batch when full; throws the first failed batch's error. */
  void add(RowMutation row) throws IOException {
    throwIfFailed();
    int permits = permits(row);
    try {
      // Over budget: send the fullest buffer (its region may be slow to fill), then wait for loads to finish.
      while (!budget.tryAcquire(permits, 20, TimeUnit.MILLISECONDS)) {
        throwIfFailed();
        int fullest = fullest();
        if (fullest >= 0) {
          send(fullest);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("import interrupted");
    }
    int region = regionOf(row.row());
    buffers.get(region).add(row);
    bufferedBytes[region] += weight(row);
    if (bufferedBytes[region] >= batchBytes) {
      send(region);
    }
  }

  private int fullest() {
    int best = -1;
    for (int r = 0; r < bufferedBytes.length; r++) {
      if (bufferedBytes[r] > 0 && (best < 0 || bufferedBytes[r] > bufferedBytes[best])) {
        best = r;
      }
    }
    return best;
  }

  /** Sends every partly filled batch and waits until all are loaded; throws the first failure. */
  void finish() throws IOException {
    for (int r = 0; r < startKeys.length; r++) {
      if (!buffers.get(r).isEmpty()) {
        send(r);
      }
    }
    try {
      CompletableFuture.allOf(tails.toArray(new CompletableFuture<?>[0])).join();
    } catch (CompletionException e) {
      // reported below
    }
    throwIfFailed();
  }

  private void send(int region) {
    List<RowMutation> rows = buffers.get(region);
    buffers.set(region, new ArrayList<>());
    bufferedBytes[region] = 0;
    tails.set(region, tails.get(region).thenComposeAsync(v -> {
      rows.sort(BY_ROW); // stable: a row's lines keep their input order
      return sendFrom(rows, 0);
    }, encoders).whenComplete((v, e) -> {
      if (e != null) {
        failure.compareAndSet(null, e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
      }
      long permits = 0;
      for (RowMutation m : rows) {
        permits += permits(m);
      }
      budget.release((int) permits);
    }));
  }

  /** Sends {@code rows[from..]} to the region of its first row, then what that region did not take. */
  private CompletableFuture<Void> sendFrom(List<RowMutation> rows, int from) {
    if (failure.get() != null) {
      return CompletableFuture.failedFuture(new IOException("not sent: an earlier batch failed"));
    }
    List<RowMutation> part = rows.subList(from, rows.size());
    byte[] encoded = LoadBatch.encode(families, part);
    return BulkLoadClient.load(table, part.get(0).row(), encoded).thenComposeAsync(taken -> {
      if (taken <= 0 || taken > part.size()) {
        return CompletableFuture.failedFuture(new IOException("region took " + taken + " of " + part.size()
            + " rows starting at " + org.apache.hadoop.hbase.util.Bytes.toStringBinary(part.get(0).row())));
      }
      long bytes = 0;
      long cells = 0;
      for (RowMutation m : part.subList(0, taken)) {
        bytes += weight(m);
        cells += m.cells().size();
      }
      progress.rowsLoaded.add(taken);
      progress.cellsLoaded.add(cells);
      progress.bytesLoaded.add(bytes);
      return taken == part.size() ? CompletableFuture.completedFuture(null) : sendFrom(rows, from + taken);
    }, encoders);
  }

  private void throwIfFailed() throws IOException {
    Throwable t = failure.get();
    if (t != null) {
      throw t instanceof IOException io ? io : new IOException(t.getMessage(), t);
    }
  }

  /** The partition whose start key is the greatest at or below {@code row}. */
  private int regionOf(byte[] row) {
    int i = Arrays.binarySearch(startKeys, row, Bytes::compare);
    return i >= 0 ? i : Math.max(0, -i - 2);
  }

  /** A row's share of the budget: its weight, at most the whole budget (a huge row still goes through). */
  private int permits(RowMutation m) {
    return (int) Math.min(maxPermits, weight(m));
  }

  /** About the row's size in a batch. */
  static long weight(RowMutation m) {
    long w = m.row().length + 4;
    for (Cell c : m.cells()) {
      w += c.qualifier().length + c.value().length + 12;
    }
    return w;
  }
}
