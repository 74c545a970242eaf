package io.basalt.storage.je;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EngineConfigTest extends RegionTestBase {
  @Test
  void regionsShareOneCacheOfTheConfiguredSizeAndUseKeyPrefixing() {
    fx = new RegionFixture(dir, StorageConfig.DEFAULT.withCacheBytes(24L << 20).withPurgeIntervalMillis(0));
    JeRegion a = (JeRegion) fx.create("a", KeyRange.ALL, FamilySchema.of("f1"));
    JeRegion b = (JeRegion) fx.create("b", KeyRange.ALL, FamilySchema.of("f1"));
    for (JeRegion r : new JeRegion[] {a, b}) {
      assertThat(r.environment().getConfig().getSharedCache()).isTrue();
      assertThat(r.environment().getConfig().getCacheSize()).isEqualTo(24L << 20);
      assertThat(r.familyStores().get(0).db().getConfig().getKeyPrefixing()).isTrue();
    }
    assertThat(a.environment().getStats(null).getSharedCacheTotalBytes())
        .isEqualTo(b.environment().getStats(null).getSharedCacheTotalBytes());
  }

  @Test
  void collectorStaysUnderItsRateAndServingContinues() {
    fx = new RegionFixture(dir, StorageConfig.DEFAULT.withCacheBytes(16L << 20).withPurgeIntervalMillis(0)
        .withCollectorKeysPerSecond(4_000));
    var parent = fx.create("p", KeyRange.ALL, FamilySchema.of("f1"));
    for (int i = 0; i < 12_000; i++) {
      parent.mutate(RowMutation.of(Bytes.of(String.format("r%05d", i))).put(F1, Bytes.of("q"), Bytes.of("v")).build(),
          Durability.SKIP_WAL);
    }
    parent.close();
    fx.engine.cloneClosed(dir.resolve("p"), dir.resolve("c"));
    long t0 = System.nanoTime();
    var child = fx.engine.openRestricted(dir.resolve("c"), new KeyRange(Bytes.of("r04000"), Bytes.EMPTY));
    // The daughter counts its cells before collecting; writes racing that count would make it approximate.
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(((JeRegion) child)::cellCountKnown);
    // 4000 keys below the range at 4000 keys/s: at least ~1 s, while the region keeps serving.
    for (int i = 0; i < 200; i++) {
      put(child, String.format("r%05d", 5000 + i), F1, "q2", 1, "during");
    }
    assertThat(child.stats().pendingCollection()).isTrue();
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !child.stats().pendingCollection());
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThan(Duration.ofMillis(800));
    assertThat(child.stats().cellCount()).isEqualTo(8_200);
  }
}
