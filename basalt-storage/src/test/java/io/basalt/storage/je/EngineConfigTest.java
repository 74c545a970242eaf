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

  /**
   * JE checkpoints a region every 200 MB of log; maintenance checkpoints one that logged more than 20 MB since its
   * last, so a region that went quiet does not keep up to 200 MB for its recovery after a crash.
   */
  @Test
  void maintenanceCheckpointsARegionWithMuchLogSinceItsLastCheckpoint() {
    fx = new RegionFixture(dir, StorageConfig.DEFAULT.withPurgeIntervalMillis(0));
    JeRegion r = (JeRegion) fx.create("r", KeyRange.ALL, FamilySchema.of("f1"));
    com.sleepycat.je.StatsConfig clear = new com.sleepycat.je.StatsConfig().setClear(true);
    byte[] value = new byte[1000];
    writeLog(r, value, 2_000); // about 2 MB
    r.environment().getStats(clear);
    r.maintain();
    assertThat(r.environment().getStats(clear).getNCheckpoints()).as("after 2 MB of log").isZero();
    writeLog(r, value, 25_000); // about 27 MB in all
    assertThat(r.environment().getStats(clear).getNCheckpoints()).as("JE's own, under 200 MB").isZero();
    r.maintain();
    assertThat(r.environment().getStats(clear).getNCheckpoints()).as("after 27 MB of log").isEqualTo(1);
    r.maintain();
    assertThat(r.environment().getStats(clear).getNCheckpoints()).as("right after one").isZero();
  }

  private static void writeLog(JeRegion r, byte[] value, int puts) {
    for (int i = 0; i < puts; i++) {
      r.mutate(RowMutation.of(Bytes.of(String.format("r%06d", i))).put(F1, Bytes.of("q"), value).build(),
          Durability.SKIP_WAL);
    }
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
