package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sleepycat.je.EnvironmentStats;
import com.sleepycat.je.StatsConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.error.RowOutOfRangeException;
import io.basalt.storage.error.UnknownFamilyException;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** {@link Region#load}: a bulk import's batch, in large transactions, checked first, idempotent when resent. */
class BulkLoadTest extends RegionTestBase {

  @Test
  void loadsRowsLikePutsAndAResentBatchChangesNothing() {
    Region loaded = fixture().create("loaded", KeyRange.ALL, FamilySchema.of("f1"), FamilySchema.of("f2").withMaxVersions(2));
    Region put = fixture().create("put", KeyRange.ALL, FamilySchema.of("f1"), FamilySchema.of("f2").withMaxVersions(2));
    List<RowMutation> batch = new ArrayList<>();
    for (int i = 0; i < 3000; i++) { // three transactions of MAX_PART_ROWS
      batch.add(row(String.format("r%05d", i)).put(F1, of("a"), 10, of("a" + i)).put(F2, of("b"), 10, of("b" + i))
          .build());
    }
    batch.add(row("r00007").put(F2, of("b"), 11, of("newer")).build()); // a second version of a column
    batch.add(row("r00008").put(F1, of("a"), 10, of("last line wins")).build()); // the same cell again

    loaded.load(batch, Durability.SYNC_WAL);
    for (RowMutation m : batch) {
      put.mutate(m, Durability.SYNC_WAL);
    }
    ScanSpec everything = ScanSpec.all().withRead(ReadOptions.DEFAULT.withMaxVersions(Integer.MAX_VALUE));
    List<String> expected = rows(scanAll(put, everything));
    assertThat(rows(scanAll(loaded, everything))).isEqualTo(expected);
    assertThat(show(getAll(loaded, "r00007"))).containsExactly("f1:a@10=a7", "f2:b@11=newer", "f2:b@10=b7");
    assertThat(show(get(loaded, "r00008"))).containsExactly("f1:a@10=last line wins", "f2:b@10=b8");
    assertThat(loaded.stats().cellCount()).isEqualTo(put.stats().cellCount()).isEqualTo(6001);

    loaded.load(batch, Durability.SYNC_WAL); // a rerun after a lost acknowledgement
    assertThat(rows(scanAll(loaded, everything))).isEqualTo(expected);
    assertThat(loaded.stats().cellCount()).isEqualTo(6001);
  }

  @Test
  void versionsBeyondTheFamilyLimitAreTrimmedAsForPuts() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(2));
    List<RowMutation> batch = new ArrayList<>();
    for (long ts = 1; ts <= 5; ts++) {
      batch.add(row("k").put(F1, of("q"), ts, of("v" + ts)).build());
    }
    r.load(batch, Durability.SKIP_WAL);
    assertThat(show(getAll(r, "k"))).containsExactly("f1:q@5=v5", "f1:q@4=v4");
  }

  @Test
  void badInputWritesNothing() {
    Region r = fixture().create("ranged", new KeyRange(of("b"), of("m")), FamilySchema.of("f1"));
    RowMutation good = row("c").put(F1, of("q"), 1, of("1")).build();
    assertThatThrownBy(() -> r.load(List.of(good, row("z").put(F1, of("q"), 1, of("2")).build()), Durability.SYNC_WAL))
        .isInstanceOf(RowOutOfRangeException.class);
    assertThatThrownBy(() -> r.load(List.of(good, row("d").put(of("nope"), of("q"), 1, of("2")).build()),
        Durability.SYNC_WAL)).isInstanceOf(UnknownFamilyException.class);
    assertThatThrownBy(() -> r.load(List.of(good, row("d").put(F1, of("q"), of("now")).build()), Durability.SYNC_WAL))
        .as("a LATEST timestamp would make a resent batch differ").isInstanceOf(InvalidMutationException.class);
    assertThatThrownBy(() -> r.load(List.of(good, row("d").deleteColumn(F1, of("q"), 5).build()), Durability.SYNC_WAL))
        .isInstanceOf(InvalidMutationException.class);
    assertThat(get(r, "c")).isEmpty();
    assertThat(r.stats().cellCount()).isZero();
  }

  @Test
  void aBatchCommitsPerPartNotPerRow() {
    JeRegion r = (JeRegion) fixture().create(FamilySchema.of("f1"));
    StatsConfig clear = new StatsConfig().setClear(true);
    r.environment().getStats(clear);
    List<RowMutation> batch = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      batch.add(row(String.format("r%05d", i)).put(F1, of("q"), 1, of("v")).build());
    }
    r.load(batch, Durability.FSYNC_WAL);
    EnvironmentStats stats = r.environment().getStats(clear);
    System.out.printf("5000 rows loaded: %d fsyncs, %d log writes%n", stats.getNFSyncs(),
        stats.getNSequentialWrites() + stats.getNRandomWrites());
    assertThat(stats.getNFSyncs()).as("one fsync for the batch").isBetween(1L, 5L);
    assertThat(r.stats().cellCount()).isEqualTo(5000);
  }

  /** Readers never see part of a row while loads of large parts overwrite every row again and again. */
  @Test
  void readersSeeWholeRowsWhileLoadsRun() throws Exception {
    Region r = fixture().create(FamilySchema.of("f1"), FamilySchema.of("f2"));
    int rows = 2000;
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    List<Future<Integer>> futures = new ArrayList<>();
    futures.add(pool.submit(() -> {
      int n = 0;
      while (!stop.get()) {
        String v = Integer.toString(n++);
        List<RowMutation> batch = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
          batch.add(RowMutation.of(of(String.format("row%05d", i))).put(F1, of("a"), n, of(v)).put(F1, of("b"), n, of(v))
              .put(F2, of("c"), n, of(v)).put(F2, of("d"), n, of(v)).build());
        }
        r.load(batch, Durability.SKIP_WAL);
      }
      return n;
    }));
    for (int t = 0; t < 2; t++) {
      boolean scan = t == 1;
      futures.add(pool.submit(() -> {
        int checks = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < deadline) {
          if (scan) {
            try (RegionScanner s = r.scan(ScanSpec.all())) {
              for (RowResult row : s.next(rows, Long.MAX_VALUE)) {
                assertOneGeneration(row.cells());
                checks++;
              }
            }
          } else {
            assertOneGeneration(r.get(of(String.format("row%05d", checks % rows)), ReadOptions.DEFAULT));
            checks++;
          }
        }
        return checks;
      }));
    }
    Thread.sleep(3_200);
    stop.set(true);
    for (Future<Integer> f : futures) {
      assertThat(f.get(60, TimeUnit.SECONDS)).as("each loader and reader made progress").isPositive();
    }
    pool.shutdown();
  }

  private static void assertOneGeneration(List<Cell> cells) {
    if (cells.isEmpty()) {
      return;
    }
    Set<String> values = new HashSet<>();
    for (Cell c : cells) {
      values.add(Bytes.toStringBinary(c.value()));
    }
    assertThat(cells).hasSize(4);
    assertThat(values).as("one generation per row read").hasSize(1);
  }
}
