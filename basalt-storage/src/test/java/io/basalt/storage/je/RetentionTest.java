package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
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
}
