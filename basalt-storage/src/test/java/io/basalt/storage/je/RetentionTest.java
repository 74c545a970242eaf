package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import io.basalt.storage.schema.KeyRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetentionTest extends RegionTestBase {
  @Test
  void ttlHidesExpiredCellsAndPurgeRemovesThem() {
    Region r = fixture().create(FamilySchema.of("f1").withTtlSeconds(10).withMaxVersions(5));
    long now = fixture().clock.get();
    put(r, "r", F1, "old", now - 20_000, "expired");
    put(r, "r", F1, "new", now - 5_000, "live");
    assertThat(show(getAll(r, "r"))).containsExactly("f1:new@" + (now - 5_000) + "=live");
    assertThat(r.stats().cellCount()).isEqualTo(2);
    assertThat(r.maintain()).isEqualTo(1);
    assertThat(r.stats().cellCount()).isEqualTo(1);
    fixture().clock.addAndGet(6_000);
    assertThat(getAll(r, "r")).isEmpty();
    assertThat(r.maintain()).isEqualTo(1);
    assertThat(r.stats().cellCount()).isZero();
  }

  @Test
  void minVersionsKeepsNewestVersionsPastTtl() {
    Region r = fixture().create(FamilySchema.of("f1").withTtlSeconds(10).withMaxVersions(5).withMinVersions(2));
    long now = fixture().clock.get();
    for (int i = 1; i <= 4; i++) {
      put(r, "r", F1, "q", now - 100_000 + i, "v" + i);
    }
    assertThat(show(getAll(r, "r"))).containsExactly("f1:q@" + (now - 99_996) + "=v4", "f1:q@" + (now - 99_997) + "=v3");
    r.maintain();
    assertThat(r.stats().cellCount()).isEqualTo(2);
    assertThat(show(getAll(r, "r"))).hasSize(2);
  }

  @Test
  void versionsBeyondVersionsAreDroppedOnWrite() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(2));
    for (int ts = 1; ts <= 6; ts++) {
      put(r, "r", F1, "q", ts, "v" + ts);
    }
    assertThat(r.stats().cellCount()).isEqualTo(2);
    // Deleting the newest does not resurrect versions that were past VERSIONS (HBase's converged answer).
    apply(r, row("r").deleteVersion(F1, of("q"), 6));
    assertThat(show(getAll(r, "r"))).containsExactly("f1:q@5=v5");
  }

  /**
   * A put trims its column in the walk that found it over VERSIONS when the row's keys before the column allow it
   * (no family markers, first column), else after a search: both must keep the same versions.
   */
  @Test
  void versionsAreTrimmedAlikeWhereverTheColumnIs() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(2));
    // One mutation of puts out of timestamp order, single column.
    RowMutation.Builder outOfOrder = row("single");
    for (long ts : new long[] {3, 1, 5, 4, 2}) {
      outOfOrder.put(F1, of("q"), ts, of("v" + ts));
    }
    apply(r, outOfOrder);
    assertThat(show(getAll(r, "single"))).containsExactly("f1:q@5=v5", "f1:q@4=v4");
    // Several columns: only the first has nothing of its row before it.
    for (int ts = 1; ts <= 4; ts++) {
      for (String q : List.of("a", "b", "c")) {
        put(r, "wide", F1, q, ts, q + ts);
      }
    }
    assertThat(show(getAll(r, "wide"))).containsExactly("f1:a@4=a4", "f1:a@3=a3", "f1:b@4=b4", "f1:b@3=b3",
        "f1:c@4=c4", "f1:c@3=c3");
    // A family marker before the column.
    apply(r, row("marked").deleteFamily(F1, 1));
    for (int ts = 2; ts <= 6; ts++) {
      put(r, "marked", F1, "q", ts, "m" + ts);
    }
    assertThat(show(getAll(r, "marked"))).containsExactly("f1:q@6=m6", "f1:q@5=m5");
    // A column delete masking older puts: they go, the newer put stays.
    for (int ts = 1; ts <= 3; ts++) {
      put(r, "masked", F1, "q", ts, "x" + ts);
    }
    apply(r, row("masked").deleteColumn(F1, of("q"), 4));
    put(r, "masked", F1, "q", 5, "x5");
    assertThat(show(getAll(r, "masked"))).containsExactly("f1:q@5=x5");
    // single 2, wide 6, marked 2 + its marker, masked 1 (+ its column marker unless the trim dropped it)
    assertThat(r.stats().cellCount()).isIn(12L, 13L);
  }

  /**
   * Newest-first puts (the usual overwrite) trim in the walk from the key put; where a version within VERSIONS is
   * one a compaction drops (expired), that walk cannot decide and the search after the mutation does: both must
   * leave exactly what a compaction would.
   */
  @Test
  void overwritesKeepExactlyWhatACompactionKeeps() {
    Region one = fixture().create("one", KeyRange.ALL, FamilySchema.of("f1").withMaxVersions(1));
    for (int ts = 1; ts <= 5; ts++) {
      for (String row : List.of("r1", "r2", "r3")) {
        put(one, row, F1, "q", ts, row + "v" + ts);
      }
    }
    assertThat(one.stats().cellCount()).isEqualTo(3);
    assertThat(show(getAll(one, "r2"))).containsExactly("f1:q@5=r2v5");

    Region ten = fixture().create("ten", KeyRange.ALL, FamilySchema.of("f1").withMaxVersions(10));
    for (int ts = 1; ts <= 12; ts++) {
      put(ten, "r", F1, "q", ts, "v" + ts);
    }
    assertThat(ten.stats().cellCount()).isEqualTo(10);
    assertThat(ten.maintain()).isZero();

    Region ttl = fixture().create("ttl", KeyRange.ALL, FamilySchema.of("f1").withMaxVersions(2).withTtlSeconds(10));
    long now = fixture().clock.get();
    put(ttl, "r", F1, "q", now - 30_000, "expired1");
    put(ttl, "r", F1, "q", now - 20_000, "expired2");
    assertThat(ttl.stats().cellCount()).isEqualTo(2); // within VERSIONS: left for the purge
    put(ttl, "r", F1, "q", now, "live");
    assertThat(show(getAll(ttl, "r"))).containsExactly("f1:q@" + now + "=live");
    assertThat(ttl.stats().cellCount()).isEqualTo(1);
    assertThat(ttl.maintain()).isZero();
  }

  @Test
  void purgeDropsDeletedCellsAndRedundantMarkersButKeepsMasking() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(5));
    for (int ts = 1; ts <= 3; ts++) {
      put(r, "r", F1, "a", ts, "a" + ts);
    }
    apply(r, row("r").deleteColumn(F1, of("a"), 2).deleteVersion(F1, of("a"), 1));
    apply(r, row("r").deleteFamily(F1, 2));
    long before = r.stats().cellCount();
    assertThat(before).isEqualTo(6);
    // Removed: puts at 1 and 2, the column marker and version marker covered by the family marker.
    assertThat(r.maintain()).isEqualTo(4);
    assertThat(show(getAll(r, "r"))).containsExactly("f1:a@3=a3");
    put(r, "r", F1, "a", 2, "late");
    assertThat(show(getAll(r, "r"))).containsExactly("f1:a@3=a3");
  }

  @Test
  void keepDeletedCellsKeepsDeletedCellsThroughPurge() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(5).withKeepDeletedCells(KeepDeletedCells.TRUE));
    put(r, "r", F1, "a", 1, "a1");
    apply(r, row("r").deleteColumn(F1, of("a"), 5));
    assertThat(r.maintain()).isZero();
    assertThat(getAll(r, "r")).isEmpty();
    assertThat(show(getRange(r, "r", 0, 5))).containsExactly("f1:a@1=a1");
  }

  @Test
  void periodicMaintenanceRunsInTheBackground() throws Exception {
    fx = new RegionFixture(dir, io.basalt.storage.StorageConfig.DEFAULT.withCacheBytes(16L << 20).withPurgeIntervalMillis(50));
    Region r = fx.create(FamilySchema.of("f1").withTtlSeconds(1));
    put(r, "r", F1, "q", fx.clock.get() - 5_000, "expired");
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
        .until(() -> r.stats().cellCount() == 0);
  }

  /**
   * Puts trim as they go, so a family without TTL holds dead cells only after a delete: the periodic purge walks it
   * once, then skips it until a delete (or a marker its walk left, which may mask a later put); a major compaction
   * walks it anyway.
   */
  @Test
  void thePurgeSkipsAFamilyNoDeleteTouchedSinceItsLastWalk() {
    JeRegion r = (JeRegion) fixture().create(FamilySchema.of("f1").withMaxVersions(5),
        FamilySchema.of("f2").withTtlSeconds(3600));
    String big = "v".repeat(500); // not embedded in JE's leaves: a walk reads every record
    for (int ts = 1; ts <= 3; ts++) {
      for (int i = 0; i < 50; i++) {
        put(r, "r" + i, F1, "q", ts, big);
      }
    }
    FamilyStore f1 = r.familyStores().get(0);
    FamilyStore ttl = r.familyStores().get(1);
    assertThat(r.maintain()).isZero();
    assertThat(f1.mayHoldDeadCells()).isFalse();
    assertThat(ttl.mayHoldDeadCells()).as("a TTL family is always walked").isTrue();
    r.environment().getStats(new com.sleepycat.je.StatsConfig().setClear(true));
    assertThat(r.maintain()).isZero();
    assertThat(r.environment().getStats(null).getNLNsFetch()).as("records read by a pass with nothing to do").isZero();

    apply(r, row("r7").deleteColumn(F1, of("q"), 2));
    assertThat(f1.mayHoldDeadCells()).isTrue();
    assertThat(r.maintain()).as("the versions the delete masks").isEqualTo(2);
    assertThat(f1.mayHoldDeadCells()).as("the delete's marker is left: it may mask a later put").isTrue();
    put(r, "r7", F1, "q", 1, "masked on arrival");
    assertThat(show(getAll(r, "r7"))).containsExactly("f1:q@3=" + big);
    assertThat(r.maintain()).as("the masked put, within VERSIONS so not trimmed when put").isEqualTo(1);
    assertThat(r.compact(true).entriesRemoved()).isZero();
  }
}
