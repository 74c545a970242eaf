package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.error.RegionClosedException;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.error.StorageFullException;
import io.basalt.storage.error.UnknownFamilyException;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegionLifecycleTest extends RegionTestBase {
  @Test
  void statsCountStoredEntriesAndLogBytes() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(2), FamilySchema.of("f2"));
    assertThat(r.stats().cellCount()).isZero();
    put(r, "a", F1, "q", 1, "v");
    put(r, "a", F1, "q", 1, "overwritten in place");
    put(r, "a", F1, "q", 2, "v");
    put(r, "a", F1, "q", 3, "v");
    apply(r, row("b").put(F1, of("q"), 1, of("v")).put(F2, of("q"), 1, of("v")).deleteFamily(F2, 0));
    assertThat(r.stats().cellCount()).isEqualTo(5);
    assertThat(r.stats().logBytes()).isPositive();
    assertThat(r.stats().pendingCollection()).isFalse();
  }

  @Test
  void theCountSavedAtCloseServesTheNextOpenOfTheSameRangeOnly() {
    Region r = fixture().create(FamilySchema.of("f1"));
    for (String row : List.of("a", "b", "c", "d")) {
      put(r, row, F1, "q", 1, "v");
    }
    r.close();
    JeRegion again = (JeRegion) fixture().engine.open(dir.resolve("region"));
    assertThat(again.cellCountKnown()).isTrue();
    assertThat(again.stats().cellCount()).isEqualTo(4);
    put(again, "e", F1, "q", 1, "v");
    again.close();

    fixture().engine.cloneClosed(dir.resolve("region"), dir.resolve("clone"));
    Region narrower = fixture().engine.openRestricted(dir.resolve("clone"), new KeyRange(of("c"), of("")));
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(((JeRegion) narrower)::cellCountKnown);
    assertThat(narrower.stats().cellCount()).isEqualTo(3);
  }

  @Test
  void alterFamiliesAddsDropsAndRetunes() {
    Region r = fixture().create(FamilySchema.of("f1"), FamilySchema.of("f2"));
    put(r, "r", F1, "q", 1, "one");
    put(r, "r", F2, "q", 1, "two");
    r.alterFamilies(new RegionDescriptor(List.of(FamilySchema.of("f1").withMaxVersions(3), FamilySchema.of("f3")), KeyRange.ALL));
    assertThat(show(get(r, "r"))).containsExactly("f1:q@1=one");
    assertThatThrownBy(() -> put(r, "r", F2, "q", 2, "x")).isInstanceOf(UnknownFamilyException.class);
    put(r, "r", of("f3"), "q", 1, "three");
    put(r, "r", F1, "q", 2, "one-b");
    assertThat(show(getAll(r, "r"))).containsExactly("f1:q@2=one-b", "f1:q@1=one", "f3:q@1=three");
    // Re-adding a dropped family starts empty.
    r.alterFamilies(new RegionDescriptor(List.of(FamilySchema.of("f1"), FamilySchema.of("f2"), FamilySchema.of("f3")), KeyRange.ALL));
    assertThat(show(getAll(r, "r"))).containsExactly("f1:q@2=one-b", "f3:q@1=three");
  }

  @Test
  void closedRegionRefusesWorkAndScannersStop() {
    Region r = fixture().create(FamilySchema.of("f1"));
    put(r, "r", F1, "q", 1, "v");
    RegionScanner s = r.scan(ScanSpec.all());
    r.close();
    assertThatThrownBy(() -> get(r, "r")).isInstanceOf(RegionClosedException.class);
    assertThatThrownBy(() -> s.next(1, Long.MAX_VALUE)).isInstanceOf(RegionClosedException.class);
    r.close();
  }

  @Test
  void aRegionDirectoryIsOpenedByOneOwnerOnly() {
    Region r = fixture().create(FamilySchema.of("f1"));
    assertThatThrownBy(() -> fixture().engine.create(fixture().dir.resolve("region"), r.descriptor()))
        .isInstanceOf(StorageException.class).hasMessageContaining("non-empty");
    assertThatThrownBy(() -> fixture().engine.open(dir.resolve("nothing-here"))).isInstanceOf(StorageException.class);
  }

  @Test
  void aFullDiskRefusesWritesCleanlyAndLosesNothing() {
    Region r = fixture().create(FamilySchema.of("f1"));
    put(r, "kept", F1, "q", 1, "before");
    r.close();
    fx.close();
    // Demand more free space than any disk has: JE must refuse writes, not corrupt anything.
    fx = new RegionFixture(dir, StorageConfig.DEFAULT.withCacheBytes(16L << 20).withPurgeIntervalMillis(0)
        .withFreeDiskBytes(Long.MAX_VALUE / 4));
    Region full = fx.engine.open(dir.resolve("region"));
    assertThatThrownBy(() -> {
      for (int i = 0; i < 100; i++) {
        put(full, "new" + i, F1, "q", 1, "x".repeat(10_000));
      }
    }).isInstanceOf(StorageFullException.class).hasMessageContaining("disk");
    assertThat(show(get(full, "kept"))).containsExactly("f1:q@1=before");
  }
}
