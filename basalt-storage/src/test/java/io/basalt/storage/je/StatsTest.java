package io.basalt.storage.je;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.EngineStats;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import org.junit.jupiter.api.Test;

/** The figures metrics read: per-region rows read and written, engine cache/log totals that only grow. */
class StatsTest extends RegionTestBase {
  @Test
  void regionsCountRowsReadAndWritten() {
    Region r = fixture().create(FamilySchema.of("f1"));
    for (int i = 0; i < 10; i++) {
      put(r, "row" + i, F1, "q", 1, "v");
    }
    apply(r, row("row0").deleteColumn(F1, io.basalt.storage.cell.Bytes.of("q"), 1));
    get(r, "row1");
    get(r, "missing");
    assertThat(scanAll(r, ScanSpec.all())).hasSize(9);
    assertThat(r.stats().rowsWritten()).isEqualTo(11);
    assertThat(r.stats().rowsRead()).isEqualTo(2 + 9);
  }

  @Test
  void engineTotalsCoverOpenRegionsAndKeepCountingAfterOneCloses() {
    Region a = fixture().create("a", io.basalt.storage.schema.KeyRange.ALL, FamilySchema.of("f1"));
    Region b = fixture().create("b", io.basalt.storage.schema.KeyRange.ALL, FamilySchema.of("f1"));
    for (int i = 0; i < 100; i++) {
      put(a, "row" + i, F1, "q", 1, "value" + i);
      put(b, "row" + i, F1, "q", 1, "value" + i);
    }
    for (int i = 0; i < 100; i++) {
      get(a, "row" + i);
    }
    EngineStats s = fx.engine.stats();
    assertThat(s.openRegions()).isEqualTo(2);
    assertThat(s.cacheBytes()).isPositive().isLessThanOrEqualTo(s.cacheLimitBytes());
    assertThat(s.logBytes()).isEqualTo(a.stats().logBytes() + b.stats().logBytes());
    assertThat(s.cacheFetches()).isPositive();
    assertThat(s.cacheHitRatio()).isBetween(0.0, 1.0);
    a.close();
    EngineStats after = fx.engine.stats();
    assertThat(after.openRegions()).isEqualTo(1);
    assertThat(after.cacheFetches()).isGreaterThanOrEqualTo(s.cacheFetches());
    assertThat(after.cacheMisses()).isGreaterThanOrEqualTo(s.cacheMisses());
  }
}
