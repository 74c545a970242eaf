package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.mutation.Append;
import io.basalt.storage.mutation.CompareOp;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.Increment;
import io.basalt.storage.mutation.RowCondition;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReadModifyWriteTest extends RegionTestBase {
  private Region region() {
    return fixture().create(FamilySchema.of("f1"), FamilySchema.of("f2"));
  }

  private static Increment inc(String row, long amount, String... qualifiers) {
    List<Increment.Delta> deltas = new ArrayList<>();
    for (String q : qualifiers) {
      deltas.add(new Increment.Delta(F1, of(q), amount));
    }
    return new Increment(of(row), deltas, true);
  }

  @Test
  void incrementStartsAtZeroAddsAndReturnsNewCells() {
    Region r = region();
    List<Cell> first = r.increment(inc("r", 5, "a", "b"), Durability.SYNC_WAL);
    assertThat(first).extracting(c -> Bytes.toLong(c.value())).containsExactly(5L, 5L);
    assertThat(first).extracting(Cell::timestamp).containsOnly(fixture().clock.get());
    List<Cell> second = r.increment(inc("r", -7, "a"), Durability.SYNC_WAL);
    assertThat(Bytes.toLong(second.get(0).value())).isEqualTo(-2);
    assertThat(Bytes.toLong(get(r, "r").get(0).value())).isEqualTo(-2);
    // Same millisecond: the new cell goes just above the old one so it is not lost under it.
    assertThat(second.get(0).timestamp()).isEqualTo(fixture().clock.get() + 1);
    assertThat(r.increment(new Increment(of("r"), List.of(new Increment.Delta(F1, of("a"), 1)), false), Durability.SYNC_WAL)).isEmpty();
    assertThat(Bytes.toLong(get(r, "r").get(0).value())).isEqualTo(-1);
  }

  @Test
  void incrementOfANonLongFailsAndChangesNothing() {
    Region r = region();
    put(r, "r", F1, "a", 1, "abc");
    assertThatThrownBy(() -> r.increment(inc("r", 1, "b", "a"), Durability.SYNC_WAL))
        .isInstanceOf(InvalidMutationException.class).hasMessageContaining("Field is not a long, it's 3 bytes wide");
    assertThat(show(get(r, "r"))).containsExactly("f1:a@1=abc");
  }

  @Test
  void concurrentIncrementsOfOneCounterAreAtomic() throws Exception {
    Region r = region();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      futures.add(pool.submit(() -> {
        for (int i = 0; i < 250; i++) {
          r.increment(inc("counter", 1, "n"), Durability.ASYNC_WAL);
        }
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    assertThat(Bytes.toLong(get(r, "counter").get(0).value())).isEqualTo(1000);
  }

  @Test
  void appendConcatenates() {
    Region r = region();
    Append app = new Append(of("r"), List.of(new Append.Suffix(F1, of("s"), of("ab")), new Append.Suffix(F2, of("t"), of("x"))), true);
    assertThat(show(r.append(app, Durability.SYNC_WAL))).containsExactly("f1:s@1000000=ab", "f2:t@1000000=x");
    fixture().clock.addAndGet(10);
    assertThat(show(r.append(app, Durability.SYNC_WAL))).containsExactly("f1:s@1000010=abab", "f2:t@1000010=xx");
  }

  @Test
  void checkAndMutateComparesOperandToStoredValue() {
    Region r = region();
    put(r, "r", F1, "n", 1, "5");
    RowCondition less3 = RowCondition.column(F1, of("n"), CompareOp.LESS, of("3"), TimeRange.ALL);
    assertThat(r.checkAndMutate(of("r"), less3, row("r").put(F1, of("hit"), 1, of("1")).build(), Durability.SYNC_WAL)).isTrue();
    RowCondition greater3 = RowCondition.column(F1, of("n"), CompareOp.GREATER, of("3"), TimeRange.ALL);
    assertThat(r.checkAndMutate(of("r"), greater3, row("r").put(F1, of("miss"), 1, of("1")).build(), Durability.SYNC_WAL)).isFalse();
    assertThat(show(get(r, "r"))).containsExactly("f1:hit@1=1", "f1:n@1=5");
  }

  @Test
  void checkAndMutateOnMissingColumns() {
    Region r = region();
    RowCondition absent = RowCondition.column(F1, of("x"), CompareOp.EQUAL, null, TimeRange.ALL);
    RowCondition notEqual = RowCondition.column(F1, of("x"), CompareOp.NOT_EQUAL, of("v"), TimeRange.ALL);
    assertThat(r.checkAndMutate(of("r"), notEqual, row("r").put(F1, of("y"), 1, of("1")).build(), Durability.SYNC_WAL)).isFalse();
    assertThat(r.checkAndMutate(of("r"), absent, row("r").put(F1, of("x"), 1, of("v")).build(), Durability.SYNC_WAL)).isTrue();
    assertThat(r.checkAndMutate(of("r"), absent, row("r").put(F1, of("x"), 2, of("w")).build(), Durability.SYNC_WAL)).isFalse();
    assertThat(show(get(r, "r"))).containsExactly("f1:x@1=v");
    // HBase's existence check with other operators: no cell matches all but NOT_EQUAL...
    RowCondition lessThanNothing = RowCondition.column(F1, of("none"), CompareOp.LESS, null, TimeRange.ALL);
    RowCondition notEqualNothing = RowCondition.column(F1, of("none"), CompareOp.NOT_EQUAL, null, TimeRange.ALL);
    assertThat(r.checkAndMutate(of("r"), lessThanNothing, row("r").build(), Durability.SYNC_WAL)).isTrue();
    assertThat(r.checkAndMutate(of("r"), notEqualNothing, row("r").build(), Durability.SYNC_WAL)).isFalse();
    // ...and a non-empty cell matches only NOT_EQUAL.
    RowCondition notEqualX = RowCondition.column(F1, of("x"), CompareOp.NOT_EQUAL, null, TimeRange.ALL);
    assertThat(r.checkAndMutate(of("r"), notEqualX, row("r").build(), Durability.SYNC_WAL)).isTrue();
    assertThat(r.checkAndMutate(of("r"), absent, row("r").build(), Durability.SYNC_WAL)).isFalse();
  }

  @Test
  void mutateRowMixesPutsIncrementsAndAppendsAtomicallyUnderACondition() {
    Region r = region();
    put(r, "r", F1, "flag", 1, "go");
    RowCondition go = RowCondition.column(F1, of("flag"), CompareOp.EQUAL, of("go"), TimeRange.ALL);
    List<io.basalt.storage.mutation.RowOperation> ops = List.of(
        row("r").put(F2, of("p"), 1, of("put")).build(),
        inc("r", 2, "n"),
        inc("r", 3, "n"),
        new Append(of("r"), List.of(new Append.Suffix(F2, of("s"), of("ab"))), true));
    var outcome = r.mutateRow(of("r"), go, ops, Durability.SYNC_WAL);
    assertThat(outcome.applied()).isTrue();
    // As HBase: both increments read the row as stored before the update (no "n": 2 and 3), the last one stays.
    assertThat(outcome.results()).extracting(c -> Bytes.toStringBinary(c.qualifier())).containsExactly("n", "n", "s");
    assertThat(Bytes.toLong(outcome.results().get(0).value())).isEqualTo(2);
    assertThat(Bytes.toLong(outcome.results().get(1).value())).isEqualTo(3);
    assertThat(show(getAll(r, "r"))).hasSize(4).contains("f2:p@1=put", "f2:s@1000000=ab");
    RowCondition stop = RowCondition.column(F1, of("flag"), CompareOp.EQUAL, of("stop"), TimeRange.ALL);
    assertThat(r.mutateRow(of("r"), stop, List.of(inc("r", 100, "n")), Durability.SYNC_WAL).applied()).isFalse();
    assertThat(Bytes.toLong(r.get(of("r"), io.basalt.storage.read.ReadOptions.DEFAULT.withColumns(columns(F1, "n"))).get(0).value()))
        .isEqualTo(3);
  }

  @Test
  void checkAndMutateIsAtomicUnderContention() throws Exception {
    Region r = region();
    AtomicInteger winners = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int id = t;
      futures.add(pool.submit(() -> {
        for (int i = 0; i < 50; i++) {
          RowCondition free = RowCondition.column(F1, of("lock" + i), CompareOp.EQUAL, null, TimeRange.ALL);
          if (r.checkAndMutate(of("r"), free, row("r").put(F1, of("lock" + i), 1, of("t" + id)).build(), Durability.SYNC_WAL)) {
            winners.incrementAndGet();
          }
        }
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    assertThat(winners.get()).isEqualTo(50);
  }
}
