package io.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.ExtendedCellBuilderFactory;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PrefetchingCursorTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  private static Result row(int i) {
    Cell c = ExtendedCellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(Bytes.toBytes(i))
        .setFamily(Bytes.toBytes("f")).setQualifier(Bytes.toBytes("q")).setTimestamp(1)
        .setType(Cell.Type.Put).setValue(Bytes.toBytes("v")).build();
    return Result.create(new Cell[] {c}, null, false, false);
  }

  private static int rowOf(Result r) {
    return Bytes.toInt(r.getRow());
  }

  /** A scanner over rows 0..n-1 that notes each read's thread and can be told to fail. */
  private static final class Rows implements ResultCursor {
    final int n;
    int pos;
    volatile IOException failNext;
    final ConcurrentLinkedQueue<String> readers = new ConcurrentLinkedQueue<>();
    volatile boolean closed;

    Rows(int n) {
      this.n = n;
    }

    @Override
    public synchronized List<Result> next(int rows, long maxBytes, boolean cutRows, long deadline, int maxNewRows)
        throws IOException {
      readers.add(Thread.currentThread().getName());
      if (failNext != null) {
        throw failNext;
      }
      List<Result> out = new ArrayList<>();
      int cap = maxNewRows > 0 ? Math.min(rows, maxNewRows) : rows;
      while (pos < n && out.size() < cap) {
        out.add(row(pos++));
      }
      return out;
    }

    @Override
    public synchronized boolean regionDone() {
      return pos >= n;
    }

    @Override
    public boolean scanComplete() {
      return false;
    }

    @Override
    public boolean stale() {
      return false;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static int rowsRead(Rows rows) {
    synchronized (rows) {
      return rows.pos;
    }
  }

  private static void waitUntil(java.util.function.BooleanSupplier done) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime() - end).as("waited 10 s").isNegative();
      Thread.onSpinWait();
    }
  }

  private static List<Integer> drain(ResultCursor c, int rows) throws IOException {
    List<Integer> seen = new ArrayList<>();
    while (true) {
      for (Result r : c.next(rows, Long.MAX_VALUE, true, Long.MAX_VALUE, 0)) {
        seen.add(rowOf(r));
      }
      if (c.regionDone()) {
        return seen;
      }
    }
  }

  @Test
  void everyRowComesOnceAndInOrderWithTheRestReadAhead() throws IOException {
    Rows rows = new Rows(1_000);
    PrefetchingCursor c = new PrefetchingCursor(rows, pool);
    List<Integer> seen = drain(c, 7);
    assertThat(seen).hasSize(1_000);
    for (int i = 0; i < seen.size(); i++) {
      assertThat(seen.get(i)).isEqualTo(i);
    }
    assertThat(rows.readers).as("batches after the second read by a helper or waited for")
        .hasSizeGreaterThan(100);
  }

  @Test
  void theFirstBatchAndRowLimitedCallsDoNotReadAhead() throws IOException {
    Rows rows = new Rows(100);
    PrefetchingCursor c = new PrefetchingCursor(rows, pool);
    c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0);
    assertThat(rows.readers).hasSize(1);
    c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 11);
    assertThat(rows.readers).as("a call with a row limit").hasSize(2);
    c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0);
    waitUntil(() -> rows.readers.size() == 4 && !rows.regionDone() && rowsRead(rows) == 40);
  }

  @Test
  void flagsAreThoseOfTheBatchReturnedNotOfTheOneReadAhead() throws IOException {
    Rows rows = new Rows(30);
    PrefetchingCursor c = new PrefetchingCursor(rows, pool);
    c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0);
    assertThat(c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0)).hasSize(10);
    waitUntil(rows::regionDone);
    assertThat(c.regionDone()).as("rows 20-29 are read ahead, not returned").isFalse();
    assertThat(c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0)).extracting(PrefetchingCursorTest::rowOf)
        .startsWith(20).hasSize(10);
    assertThat(c.regionDone()).isTrue();
    assertThat(rows.readers).as("no read ahead past the region's end").hasSize(3);
  }

  @Test
  void aReadAheadNoHelperStartedIsReadByTheCallAndOneNotStartedIsDroppedOnClose() throws IOException {
    Rows rows = new Rows(100);
    ConcurrentLinkedQueue<Runnable> neverRun = new ConcurrentLinkedQueue<>();
    PrefetchingCursor c = new PrefetchingCursor(rows, neverRun::add);
    c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0);
    c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0);
    assertThat(neverRun).hasSize(1);
    assertThat(c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0)).extracting(PrefetchingCursorTest::rowOf)
        .startsWith(20);
    assertThat(rows.readers).containsOnly(Thread.currentThread().getName());
    c.close();
    neverRun.forEach(Runnable::run); // a helper that starts after the close reads nothing
    assertThat(rows.pos).isEqualTo(30);
    assertThat(rows.closed).isTrue();
  }

  @Test
  void aFailedReadAheadFailsTheNextCall() throws Exception {
    Rows rows = new Rows(100);
    CountDownLatch hold = new CountDownLatch(1);
    PrefetchingCursor c = new PrefetchingCursor(rows, task -> pool.execute(() -> {
      try {
        hold.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      task.run();
    }));
    c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0);
    c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0);
    rows.failNext = new IOException("region closed");
    hold.countDown();
    assertThatThrownBy(() -> c.next(10, Long.MAX_VALUE, true, Long.MAX_VALUE, 0)).hasMessage("region closed");
  }
}
