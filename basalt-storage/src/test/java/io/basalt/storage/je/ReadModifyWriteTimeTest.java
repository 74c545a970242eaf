package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.Append;
import io.basalt.storage.mutation.CompareOp;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.Increment;
import io.basalt.storage.mutation.RowCondition;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HBase 2.6's timestamp rules of increments, appends and check-and-mutate (HRegion.reckonDelta, checkAndMutate). */
class ReadModifyWriteTimeTest extends RegionTestBase {
  private Region region() {
    return fixture().create(FamilySchema.of("f1").withMaxVersions(10), FamilySchema.of("f2"));
  }

  private long now() {
    return fixture().clock.get();
  }

  private static Increment inc(long amount, long ts, TimeRange range) {
    return new Increment(of("r"), List.of(new Increment.Delta(F1, of("n"), amount, ts)), true, range);
  }

  @Test
  void anIncrementReadsTheNewestVersionInsideItsTimeRange() {
    Region r = region();
    r.mutate(RowMutation.of(of("r")).put(F1, of("n"), 100, Bytes.of(1L)).put(F1, of("n"), 200, Bytes.of(10L)).build(),
        Durability.SYNC_WAL);
    List<Cell> out = r.increment(inc(5, RowMutation.LATEST, new TimeRange(0, 150)), Durability.SYNC_WAL);
    assertThat(Bytes.toLong(out.get(0).value())).isEqualTo(6);
    assertThat(out.get(0).timestamp()).isEqualTo(now());
    // Nothing in the range: the delta alone, at now.
    out = r.increment(inc(5, RowMutation.LATEST, new TimeRange(300, 400)), Durability.SYNC_WAL);
    assertThat(Bytes.toLong(out.get(0).value())).isEqualTo(5);
    assertThat(out.get(0).timestamp()).isEqualTo(now());
  }

  @Test
  void aClientTimestampCountsOnlyForANewCell() {
    Region r = region();
    List<Cell> out = r.increment(inc(3, 500, TimeRange.ALL), Durability.SYNC_WAL);
    assertThat(out.get(0).timestamp()).isEqualTo(500);
    out = r.increment(inc(3, 600, TimeRange.ALL), Durability.SYNC_WAL);
    assertThat(Bytes.toLong(out.get(0).value())).isEqualTo(6);
    assertThat(out.get(0).timestamp()).isEqualTo(now());
    // A current cell in the future: just above it.
    r.mutate(RowMutation.of(of("r")).put(F1, of("n"), now() + 5000, Bytes.of(1L)).build(), Durability.SYNC_WAL);
    out = r.increment(inc(1, 600, TimeRange.ALL), Durability.SYNC_WAL);
    assertThat(out.get(0).timestamp()).isEqualTo(now() + 5001);
    Append app = new Append(of("r"), List.of(new Append.Suffix(F2, of("s"), of("x"), 700)), true, TimeRange.ALL);
    assertThat(r.append(app, Durability.SYNC_WAL).get(0).timestamp()).isEqualTo(700);
  }

  @Test
  void aConditionalPutIsNeverOlderThanTheCellItsCheckRead() {
    Region r = region();
    long future = now() + 10_000;
    put(r, "r", F1, "flag", future, "go");
    RowCondition go = RowCondition.column(F1, of("flag"), CompareOp.EQUAL, of("go"), TimeRange.ALL);
    RowMutation m = RowMutation.of(of("r")).put(F2, of("a"), of("v")).put(F2, of("b"), 7, of("w")).build();
    assertThat(r.checkAndMutate(of("r"), go, m, Durability.SYNC_WAL)).isTrue();
    assertThat(show(getAll(r, "r"))).contains("f2:a@" + future + "=v", "f2:b@7=w");
    // A check cell in the past leaves now.
    put(r, "r2", F1, "flag", 5, "go");
    RowMutation m2 = RowMutation.of(of("r2")).put(F2, of("a"), of("v")).build();
    assertThat(r.checkAndMutate(of("r2"), go, m2, Durability.SYNC_WAL)).isTrue();
    assertThat(show(getAll(r, "r2"))).contains("f2:a@" + now() + "=v");
  }
}
