package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.region.Compaction;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** Flush and compaction of one region: what HBase's Admin.flush and compact/majorCompact ask of it. */
class CompactionTest {
  private static final byte[] F = of("f");
  private static final int ROWS = 20_000;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aMajorCompactionPurgesDeletedCellsAndFreesTheirLogSegments(int format) {
    // Small segments so deleted data fills whole segments the cleaner can free.
    StorageConfig config = StorageConfig.DEFAULT.withCacheBytes(64L << 20).withPurgeIntervalMillis(0)
        .withLogFileBytes(1L << 20);
    try (RegionFixture fx = new RegionFixture(dir, config)) {
      Region r = fx.createInFormat(format, "r", FamilySchema.of("f"));
      byte[] value = new byte[500];
      for (int i = 0; i < ROWS; i++) {
        r.mutate(RowMutation.of(of(String.format("row%06d", i))).put(F, of("q"), 1, value).build(), Durability.SKIP_WAL);
      }
      for (int i = 0; i < ROWS; i += 10) { // keep every tenth row
        for (int j = 1; j < 10; j++) {
          r.mutate(RowMutation.of(of(String.format("row%06d", i + j))).deleteColumn(F, of("q"), 2).build(),
              Durability.SKIP_WAL);
        }
      }
      r.flush();
      Compaction minor = r.compact(false);
      assertThat(minor.entriesRemoved()).isZero();
      Compaction major = r.compact(true);
      // Each deleted row's put; the markers stay (Basalt keeps a marker while a put older than it could come).
      assertThat(major.entriesRemoved()).isEqualTo(ROWS - ROWS / 10);
      System.out.printf("format %d: log %d -> %d%n", format, major.logBytesBefore(), major.logBytesAfter());
      assertThat(major.logBytesAfter()).isLessThan(major.logBytesBefore() / 2);
      assertThat(r.get(of("row000000"), ReadOptions.DEFAULT)).hasSize(1);
      assertThat(r.get(of("row000001"), ReadOptions.DEFAULT)).isEmpty();
      System.out.printf("format %d: major compaction of %d rows (90%% deleted): purged %d entries, log %d -> %d bytes, %d ms%n",
          format, ROWS, major.entriesRemoved(), major.logBytesBefore(), major.logBytesAfter(), major.millis());
    }
  }
}
