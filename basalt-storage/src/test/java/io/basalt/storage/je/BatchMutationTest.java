package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.EnvironmentStats;
import com.sleepycat.je.StatsConfig;
import com.sleepycat.je.Transaction;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.error.RowOutOfRangeException;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.error.UnknownFamilyException;
import io.basalt.storage.mutation.BatchResult;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Region#mutateBatch}: per-mutation outcomes, isolation, and log writes shared by the batch. */
class BatchMutationTest extends RegionTestBase {

  @Test
  void appliesEachMutationInOrderAsIfOneByOne() {
    Region batched = fixture().create("batched", KeyRange.ALL, FamilySchema.of("f1"), FamilySchema.of("f2").withMaxVersions(3));
    Region single = fixture().create("single", KeyRange.ALL, FamilySchema.of("f1"), FamilySchema.of("f2").withMaxVersions(3));
    List<RowMutation> mutations = List.of(
        row("a").put(F1, of("q"), of("1")).put(F2, of("q"), of("2")).build(),
        row("b").put(F1, of("q"), 7, of("first")).build(),
        row("b").put(F1, of("q"), 7, of("second")).build(),
        row("c").put(F2, of("q"), 1, of("v1")).put(F2, of("q"), 2, of("v2")).build(),
        row("c").deleteVersion(F2, of("q"), RowMutation.LATEST).build(),
        row("d").put(F1, of("q"), of("gone")).build(),
        row("d").deleteColumn(F1, of("q"), RowMutation.LATEST).build());
    for (Region r : List.of(batched, single)) {
      put(r, "b", F1, "q", 5, "old");
    }
    BatchResult result = batched.mutateBatch(mutations, Durability.SYNC_WAL);
    for (RowMutation m : mutations) {
      single.mutate(m, Durability.SYNC_WAL);
    }

    assertThat(result.size()).isEqualTo(7);
    assertThat(result.allApplied()).isTrue();
    assertThat(show(get(batched, "a"))).containsExactly("f1:q@1000000=1", "f2:q@1000000=2");
    // The later of two puts at one timestamp wins; VERSIONS 1 trims the older put.
    assertThat(show(getAll(batched, "b"))).containsExactly("f1:q@7=second");
    // A delete of the latest version sees the put earlier in the same batch.
    assertThat(show(getAll(batched, "c"))).containsExactly("f2:q@1=v1");
    assertThat(get(batched, "d")).isEmpty();
    ScanSpec everything = ScanSpec.all().withRead(ReadOptions.DEFAULT.withMaxVersions(Integer.MAX_VALUE));
    assertThat(rows(scanAll(batched, everything))).isEqualTo(rows(scanAll(single, everything)));
    assertThat(batched.stats().cellCount()).as("stored cells, counted once the batch committed")
        .isEqualTo(single.stats().cellCount());
  }

  /**
   * A batch of several parts (each its own transaction): the same outcome as mutation by mutation, rows repeated
   * across parts included, and each failure at its own index.
   */
  @Test
  void aLargeBatchAppliesAsIfOneByOne() {
    Region batched = fixture().create("batched", new KeyRange(of("a"), of("y")), FamilySchema.of("f1"),
        FamilySchema.of("f2").withMaxVersions(3));
    Region single = fixture().create("single", new KeyRange(of("a"), of("y")), FamilySchema.of("f1"),
        FamilySchema.of("f2").withMaxVersions(3));
    java.util.Random random = new java.util.Random(42);
    List<RowMutation> mutations = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      String row = "r" + random.nextInt(300);
      long ts = 1 + random.nextInt(5);
      RowMutation m = switch (random.nextInt(10)) {
        case 0 -> row(row).deleteVersion(F2, of("q"), RowMutation.LATEST).build();
        case 1 -> row(row).deleteColumn(F1, of("q"), RowMutation.LATEST).build();
        case 2 -> row(row).put(of("nope"), of("q"), of("bad" + i)).build();
        case 3 -> row("z" + i).put(F1, of("q"), of("out of range")).build();
        default -> row(row).put(F1, of("q"), ts, of("v" + i)).put(F2, of("q"), ts, of("w" + i)).build();
      };
      mutations.add(m);
    }
    BatchResult result = batched.mutateBatch(mutations, Durability.SYNC_WAL);
    for (int i = 0; i < mutations.size(); i++) {
      if (Bytes.toStringBinary(mutations.get(i).row()).startsWith("z")) {
        assertThat(result.failure(i)).as("mutation %d", i).isInstanceOf(RowOutOfRangeException.class);
      } else if (mutations.get(i).cells().stream().anyMatch(c -> Bytes.toStringBinary(c.family()).equals("nope"))) {
        assertThat(result.failure(i)).as("mutation %d", i).isInstanceOf(UnknownFamilyException.class);
      } else {
        assertThat(result.applied(i)).as("mutation %d", i).isTrue();
        single.mutate(mutations.get(i), Durability.SYNC_WAL);
      }
    }
    ScanSpec everything = ScanSpec.all().withRead(ReadOptions.DEFAULT.withMaxVersions(Integer.MAX_VALUE));
    assertThat(rows(scanAll(batched, everything))).isEqualTo(rows(scanAll(single, everything)));
    assertThat(batched.stats().cellCount()).isEqualTo(single.stats().cellCount());
  }

  @Test
  void aBadMutationFailsAloneAndTheOthersApply() {
    Region r = fixture().create("ranged", new KeyRange(of("b"), of("m")), FamilySchema.of("f1"));
    BatchResult result = r.mutateBatch(List.of(
        row("c").put(F1, of("q"), of("1")).build(),
        row("d").put(of("nope"), of("q"), of("2")).build(),
        row("e").put(F1, of("q"), of("3")).build(),
        row("z").put(F1, of("q"), of("4")).build(),
        row("f").put(F1, of("q"), of("5")).build()), Durability.SYNC_WAL);

    assertThat(result.applied(0)).isTrue();
    assertThat(result.failure(1)).isInstanceOf(UnknownFamilyException.class);
    assertThat(result.applied(2)).isTrue();
    assertThat(result.failure(3)).isInstanceOf(RowOutOfRangeException.class);
    assertThat(result.applied(4)).isTrue();
    assertThat(result.allApplied()).isFalse();
    assertThat(show(get(r, "c"))).containsExactly("f1:q@1000000=1");
    assertThat(get(r, "d")).isEmpty();
    assertThat(show(get(r, "f"))).containsExactly("f1:q@1000000=5");
  }

  /** The failing row first, in the middle, and last (then the batch writes the log without its commit). */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void aMutationFailingInJeFailsAloneAndLeavesNoPart(int failingPosition) {
    JeRegion r = (JeRegion) fixture().create(FamilySchema.of("f1"), FamilySchema.of("f2"));
    FamilyStore f1 = r.familyStores().get(0);
    byte[] lockedKey = CellKeyCodec.encode(of("bad"), of("q"), 9, CellType.PUT);
    List<RowMutation> batch = new ArrayList<>(List.of(
        row("a").put(F1, of("q"), of("1")).put(F2, of("q"), of("1")).build(),
        row("c").put(F1, of("q"), of("3")).build()));
    batch.add(failingPosition, row("bad").put(F2, of("q"), of("2")).put(F1, of("q"), 9, of("2")).build());
    // Another transaction holds a JE lock on the very cell row "bad" writes: its write times out.
    Transaction foreign = r.environment().beginTransaction(null, null);
    BatchResult result;
    try {
      writeInto(f1, foreign, lockedKey, of("foreign"));
      result = r.mutateBatch(batch, Durability.SYNC_WAL);
    } finally {
      foreign.abort();
    }
    for (int i = 0; i < 3; i++) {
      if (i == failingPosition) {
        assertThat(result.failure(i)).isInstanceOf(StorageException.class);
      } else {
        assertThat(result.applied(i)).as("mutation %d", i).isTrue();
      }
    }
    assertThat(show(get(r, "a"))).containsExactly("f1:q@1000000=1", "f2:q@1000000=1");
    assertThat(get(r, "bad")).as("no part of the failed row mutation").isEmpty();
    assertThat(show(get(r, "c"))).containsExactly("f1:q@1000000=3");
    assertThat(r.stats().cellCount()).isEqualTo(3);
  }

  @Test
  void emptyBatchesAndEmptyMutationsDoNothing() {
    Region r = fixture().create(FamilySchema.of("f1"));
    assertThat(r.mutateBatch(List.of(), Durability.SYNC_WAL).size()).isZero();
    assertThat(r.mutateBatch(List.of(row("a").build()), Durability.SYNC_WAL).allApplied()).isTrue();
    assertThat(get(r, "a")).isEmpty();
  }

  @Test
  void aBatchSharesLogWritesAndFsyncs() {
    JeRegion r = (JeRegion) fixture().create(FamilySchema.of("f1"));
    int puts = 1000;
    StatsConfig clear = new StatsConfig().setClear(true);
    r.environment().getStats(clear);
    assertThat(r.mutateBatch(puts("s", puts), Durability.SYNC_WAL).allApplied()).isTrue();
    long syncWalWrites = logWrites(r.environment().getStats(clear));
    assertThat(r.mutateBatch(puts("f", puts), Durability.FSYNC_WAL).allApplied()).isTrue();
    EnvironmentStats fsyncStats = r.environment().getStats(clear);
    for (int i = 0; i < 100; i++) {
      r.mutate(row("single" + i).put(F1, of("q"), of("v")).build(), Durability.SYNC_WAL);
    }
    long singleWrites = logWrites(r.environment().getStats(clear));
    System.out.printf("%d puts in a SYNC_WAL batch: %d log writes; in an FSYNC_WAL batch: %d fsyncs;"
        + " 100 single SYNC_WAL puts: %d log writes%n", puts, syncWalWrites, fsyncStats.getNFSyncs(), singleWrites);

    assertThat(singleWrites).as("one log write per single put").isGreaterThanOrEqualTo(100);
    assertThat(syncWalWrites).as("log writes of a SYNC_WAL batch of %d", puts).isPositive().isLessThan(puts / 20);
    assertThat(fsyncStats.getNFSyncs()).as("fsyncs of an FSYNC_WAL batch of %d", puts).isPositive().isLessThan(puts / 20);
    assertThat(r.stats().cellCount()).isEqualTo(2L * puts + 100);
  }

  /** A part of a batch (up to 256 rows) commits as one JE transaction, unless a row fails inside JE. */
  @Test
  void aBatchPartIsOneTransaction() {
    JeRegion r = (JeRegion) fixture().create(FamilySchema.of("f1"));
    StatsConfig clear = new StatsConfig().setClear(true);
    r.environment().getTransactionStats(clear);
    assertThat(r.mutateBatch(puts("t", 600), Durability.SYNC_WAL).allApplied()).isTrue();
    long commits = r.environment().getTransactionStats(clear).getNCommits();
    System.out.printf("a batch of 600 rows: %d JE transactions committed%n", commits);
    assertThat(commits).as("transactions of a 600-row batch in parts of 256").isEqualTo(3);
    assertThat(r.stats().cellCount()).isEqualTo(600);

    // A row whose write fails inside JE: the part's transaction aborts and its rows are written one by one.
    FamilyStore f1 = r.familyStores().get(0);
    Transaction foreign = r.environment().beginTransaction(null, null);
    BatchResult result;
    try {
      writeInto(f1, foreign, CellKeyCodec.encode(of("u000005"), of("q"), 9, CellType.PUT), of("foreign"));
      r.environment().getTransactionStats(clear);
      List<RowMutation> batch = new ArrayList<>(puts("u", 10));
      batch.set(5, row("u000005").put(F1, of("q"), 9, of("blocked")).build());
      result = r.mutateBatch(batch, Durability.SYNC_WAL);
      commits = r.environment().getTransactionStats(clear).getNCommits();
    } finally {
      foreign.abort();
    }
    assertThat(result.failure(5)).isInstanceOf(StorageException.class);
    assertThat(commits).as("the other 9 rows, one transaction each").isEqualTo(9);
    assertThat(get(r, "u000005")).isEmpty();
    assertThat(show(get(r, "u000006"))).containsExactly("f1:q@1000000=value6");
    assertThat(r.stats().cellCount()).isEqualTo(609);
  }

  @Test
  void readersSeeWholeRowsWhileBatchesWriteAndOverlappingBatchesDoNotDeadlock() throws Exception {
    Region r = fixture().create(FamilySchema.of("f1"), FamilySchema.of("f2"));
    int rows = 40;
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(5);
    List<Future<Integer>> futures = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      boolean reversed = w == 1;
      futures.add(pool.submit(() -> {
        int n = 0;
        while (!stop.get()) {
          String v = Integer.toString(n++);
          List<RowMutation> batch = new ArrayList<>();
          for (int i = 0; i < rows; i++) {
            int row = reversed ? rows - 1 - i : i;
            batch.add(RowMutation.of(of("row" + row)).put(F1, of("a"), of(v)).put(F1, of("b"), of(v))
                .put(F2, of("c"), of(v)).put(F2, of("d"), of(v)).build());
          }
          assertThat(r.mutateBatch(batch, Durability.SKIP_WAL).allApplied()).isTrue();
        }
        return n;
      }));
    }
    futures.add(pool.submit(() -> {
      int n = 0;
      while (!stop.get()) {
        String v = "single" + n++;
        r.mutate(RowMutation.of(of("row" + (n % rows))).put(F1, of("a"), of(v)).put(F1, of("b"), of(v))
            .put(F2, of("c"), of(v)).put(F2, of("d"), of(v)).build(), Durability.SKIP_WAL);
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
            assertOneGeneration(r.get(of("row" + (checks % rows)), ReadOptions.DEFAULT));
            checks++;
          }
        }
        return checks;
      }));
    }
    Thread.sleep(3_200);
    stop.set(true);
    for (Future<Integer> f : futures) {
      assertThat(f.get(30, TimeUnit.SECONDS)).as("each writer and reader made progress").isPositive();
    }
    pool.shutdown();
  }

  /**
   * Batches that go through rows in key order find each row's record one step from the row before's; rows that
   * another writer adds and removes between them meanwhile must neither be taken for them nor hide them: every row
   * keeps the column the batches do not write, and the other writer's rows are as it left them.
   */
  @Test
  void sequentialBatchesKeepEveryRowWhileOtherRowsComeAndGoBetweenThem() throws Exception {
    Region r = fixture().create(FamilySchema.of("f1"), FamilySchema.of("f2"));
    int rows = 600;
    List<RowMutation> load = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      load.add(row(String.format("r%04d", i)).put(F1, of("keep"), of("k" + i)).build());
    }
    assertThat(r.mutateBatch(load, Durability.SKIP_WAL).allApplied()).isTrue();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    Future<Set<String>> between = pool.submit(() -> {
      // Rows "r0001~" sort between "r0001" and "r0002": put some, delete some, in one family or both.
      java.util.Random random = new java.util.Random(7);
      Set<String> live = new HashSet<>();
      for (int n = 1; n <= 4_000; n++) {
        String row = String.format("r%04d~", random.nextInt(rows));
        // Timestamps of their own: the test clock stands still, and a delete would mask later puts at its time.
        if (live.contains(row) && random.nextBoolean()) {
          r.mutate(row(row).deleteFamily(F1, n).deleteFamily(F2, n).build(), Durability.SKIP_WAL);
          live.remove(row);
        } else {
          r.mutate(row(row).put(random.nextBoolean() ? F1 : F2, of("x"), n + 1, of("between")).build(),
              Durability.SKIP_WAL);
          live.add(row);
        }
      }
      return live;
    });
    Future<Integer> passes = pool.submit(() -> {
      int pass = 0;
      for (; pass < 12; pass++) {
        for (int from = 0; from < rows; from += 150) {
          List<RowMutation> batch = new ArrayList<>();
          for (int i = from; i < from + 150; i++) {
            // Every third row also gets a cell of f2: a batch then moves through two families' records.
            RowMutation.Builder b = row(String.format("r%04d", i)).put(F1, of("v"), of("p" + pass));
            batch.add((i % 3 == 0 ? b.put(F2, of("w"), of("p" + pass)) : b).build());
          }
          assertThat(r.mutateBatch(batch, Durability.SKIP_WAL).allApplied()).isTrue();
        }
      }
      return pass;
    });
    int lastPass = passes.get(60, TimeUnit.SECONDS) - 1;
    Set<String> live = between.get(60, TimeUnit.SECONDS);
    pool.shutdown();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      String row = String.format("r%04d", i);
      expected.add(row + List.of("f1:keep=k" + i, "f1:v=p" + lastPass) + (i % 3 == 0 ? "+f2:w" : ""));
      if (live.contains(row + "~")) {
        expected.add(row + "~");
      }
    }
    List<String> actual = new ArrayList<>();
    for (RowResult row : scanAll(r, ScanSpec.all())) {
      String name = Bytes.toStringBinary(row.row());
      if (name.endsWith("~")) {
        assertThat(row.cells()).extracting(c -> Bytes.toStringBinary(c.value())).containsOnly("between");
        actual.add(name);
        continue;
      }
      List<String> f1 = new ArrayList<>();
      boolean f2 = false;
      for (Cell c : row.cells()) {
        if (Bytes.compare(c.family(), F1) == 0) {
          f1.add("f1:" + Bytes.toStringBinary(c.qualifier()) + "=" + Bytes.toStringBinary(c.value()));
        } else {
          f2 |= Bytes.toStringBinary(c.value()).equals("p" + lastPass);
        }
      }
      actual.add(name + f1 + (f2 ? "+f2:w" : ""));
    }
    assertThat(actual).containsExactlyElementsOf(expected);
  }

  /** Batch-written records leave the cache as they are written (a load fills it with nothing read); single puts stay. */
  @Test
  void batchWrittenRecordsLeaveTheCacheAndReadBack() {
    Region batched = fixture().create("evicted", KeyRange.ALL, FamilySchema.of("f1"));
    Region single = fixture().create("kept", KeyRange.ALL, FamilySchema.of("f1"));
    byte[] value = new byte[4096];
    List<RowMutation> rows = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      rows.add(RowMutation.of(of(String.format("r%06d", i))).put(F1, of("q"), value).build());
    }
    long before = cacheBytes(batched);
    for (int from = 0; from < rows.size(); from += 100) {
      assertThat(batched.mutateBatch(rows.subList(from, from + 100), Durability.SYNC_WAL).allApplied()).isTrue();
    }
    long afterBatches = cacheBytes(batched);
    for (RowMutation m : rows) {
      single.mutate(m, Durability.SYNC_WAL);
    }
    long afterSingles = cacheBytes(batched);
    // 8 MB of values: single puts keep them cached, batches only the tree's nodes.
    assertThat(afterSingles - afterBatches).isGreaterThan(6L << 20);
    assertThat(afterBatches - before).isLessThan((afterSingles - afterBatches) / 4);
    assertThat(batched.get(of("r001234"), ReadOptions.DEFAULT)).singleElement()
        .satisfies(c -> assertThat(c.value()).isEqualTo(value));
  }

  private static long cacheBytes(Region r) {
    return ((JeRegion) r).environment().getStats(null).getSharedCacheTotalBytes();
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

  private static List<RowMutation> puts(String prefix, int n) {
    List<RowMutation> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(RowMutation.of(of(String.format("%s%06d", prefix, i))).put(F1, of("q"), of("value" + i)).build());
    }
    return out;
  }

  private static long logWrites(EnvironmentStats stats) {
    return stats.getNSequentialWrites() + stats.getNRandomWrites();
  }

  /** A cell written by another transaction, left uncommitted: it holds JE's lock on the record it went into. */
  private static void writeInto(FamilyStore family, Transaction txn, byte[] key, byte[] value) {
    try (CellCursor c = family.openWrite(txn)) {
      c.put(key, value, 0, value.length);
    }
  }
}
