package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
  @TempDir Path dir;

  @Test
  void putGetScan() {
    try (RegionFixture fx = new RegionFixture(dir)) {
      Region r = fx.create(FamilySchema.of("f1"), FamilySchema.of("f2"));
      for (int i = 0; i < 10; i++) {
        r.mutate(RowMutation.of(of("row" + i)).put(of("f1"), of("a"), 5, of("v" + i)).put(of("f2"), of("b"), of("w" + i)).build(),
            Durability.SYNC_WAL);
      }
      List<Cell> cells = r.get(of("row3"), ReadOptions.DEFAULT);
      assertThat(cells).containsExactly(Cell.put(of("row3"), of("f1"), of("a"), 5, of("v3")),
          Cell.put(of("row3"), of("f2"), of("b"), 1_000_000L, of("w3")));
      List<RowResult> rows = r.scan(ScanSpec.all()).next(100, Long.MAX_VALUE);
      assertThat(rows).hasSize(10);
      List<RowResult> rev = r.scan(ScanSpec.all().reversed(true)).next(100, Long.MAX_VALUE);
      assertThat(rev.get(0).row()).isEqualTo(of("row9"));
      assertThat(r.stats().cellCount()).isEqualTo(20);
      assertThat(r.midpointRow()).isPresent();
    }
  }
}
