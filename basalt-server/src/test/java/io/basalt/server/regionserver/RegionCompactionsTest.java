package io.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse.CompactionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegionCompactionsTest {
  @TempDir Path dir;

  @Test
  void aCompactionShowsItsStateUntilDoneAndIsCounted() throws InterruptedException {
    try (JeStorageEngine engine = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(16L << 20)
        .withPurgeIntervalMillis(0)); RegionCompactions compactions = new RegionCompactions()) {
      Region region = engine.create(dir.resolve("r"), new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL));
      for (int i = 0; i < 2_000; i++) {
        byte[] row = Bytes.of("row" + i);
        region.mutate(RowMutation.of(row).put(Bytes.of("f"), Bytes.of("q"), 1, Bytes.of("v")).build(), Durability.SKIP_WAL);
        region.mutate(RowMutation.of(row).deleteColumn(Bytes.of("f"), Bytes.of("q"), 1).build(), Durability.SKIP_WAL);
      }
      assertThat(compactions.state("r")).isEqualTo(CompactionState.NONE);
      compactions.request("r", region, false);
      compactions.request("r", region, true); // upgrades the queued one, or queues another
      assertThat(compactions.state("r")).isIn(CompactionState.MAJOR, CompactionState.NONE);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while ((compactions.state("r") != CompactionState.NONE || compactions.entriesRemoved() < 2_000)
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(compactions.state("r")).isEqualTo(CompactionState.NONE);
      assertThat(compactions.entriesRemoved()).isEqualTo(2_000); // the deleted puts; markers stay
      assertThat(compactions.compactions()).isBetween(1L, 2L);
      compactions.flush("r", region);
      assertThat(compactions.flushes()).isEqualTo(1);
      region.close();
    }
  }

  @Test
  void aStoppedServerRefusesCompactions() {
    try (JeStorageEngine engine = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(16L << 20)
        .withPurgeIntervalMillis(0))) {
      Region region = engine.create(dir.resolve("r"), new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL));
      RegionCompactions compactions = new RegionCompactions();
      compactions.close();
      assertThatThrownBy(() -> compactions.request("r", region, true)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("stopping");
      assertThat(compactions.state("r")).isEqualTo(CompactionState.NONE);
      region.close();
    }
  }
}
