package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.error.UnknownFamilyException;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadTest extends RegionTestBase {
  private Region region() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(3), FamilySchema.of("f2").withMaxVersions(5));
    for (long ts = 1; ts <= 5; ts++) {
      apply(r, row("r").put(F1, of("a"), ts, of("a" + ts)).put(F1, of("b"), ts, of("b" + ts)).put(F2, of("c"), ts, of("c" + ts)));
    }
    return r;
  }

  @Test
  void defaultGetReturnsNewestVersionOfEachColumnInFamilyQualifierOrder() {
    Region r = region();
    apply(r, row("r").put(F1, of(""), 1, of("empty-qualifier")));
    assertThat(show(get(r, "r"))).containsExactly("f1:@1=empty-qualifier", "f1:a@5=a5", "f1:b@5=b5", "f2:c@5=c5");
  }

  @Test
  void familyVersionsLimitWhatIsKept() {
    Region r = region();
    assertThat(show(getAll(r, "r"))).containsExactly(
        "f1:a@5=a5", "f1:a@4=a4", "f1:a@3=a3", "f1:b@5=b5", "f1:b@4=b4", "f1:b@3=b3",
        "f2:c@5=c5", "f2:c@4=c4", "f2:c@3=c3", "f2:c@2=c2", "f2:c@1=c1");
    // Versions beyond VERSIONS are gone even for a time range that would include them (the converged answer).
    assertThat(show(r.get(of("r"), ReadOptions.DEFAULT.withColumns(columns(F1, "a")).withTimeRange(new TimeRange(1, 3))))).isEmpty();
  }

  @Test
  void maxVersionsTimeRangeAndExactTimestamp() {
    Region r = region();
    ReadOptions opts = ReadOptions.DEFAULT.withColumns(columns(F2, null)).withMaxVersions(2).withTimeRange(new TimeRange(2, 5));
    assertThat(show(r.get(of("r"), opts))).containsExactly("f2:c@4=c4", "f2:c@3=c3");
    assertThat(show(r.get(of("r"), ReadOptions.DEFAULT.withTimeRange(TimeRange.at(4))))).containsExactly("f1:a@4=a4", "f1:b@4=b4", "f2:c@4=c4");
  }

  @Test
  void perFamilyTimeRangesOverrideTheReadsRange() {
    Region r = region();
    ReadOptions opts = ReadOptions.DEFAULT.withMaxVersions(5).withTimeRange(TimeRange.at(5))
        .withFamilyTimeRange(F2, new TimeRange(1, 3));
    assertThat(show(r.get(of("r"), opts))).containsExactly("f1:a@5=a5", "f1:b@5=b5", "f2:c@2=c2", "f2:c@1=c1");
  }

  @Test
  void columnSelectionPicksFamiliesAndQualifiers() {
    Region r = region();
    assertThat(show(r.get(of("r"), ReadOptions.DEFAULT.withColumns(columns(F1, "b", F2, "c"))))).containsExactly("f1:b@5=b5", "f2:c@5=c5");
    assertThat(show(r.get(of("r"), ReadOptions.DEFAULT.withColumns(columns(F2, null))))).containsExactly("f2:c@5=c5");
    assertThat(show(r.get(of("r"), ReadOptions.DEFAULT.withColumns(columns(F1, "zz"))))).isEmpty();
    assertThat(r.get(of("nope"), ReadOptions.DEFAULT)).isEmpty();
  }

  @Test
  void perFamilyLimitAndOffset() {
    Region r = region();
    apply(r, row("r").put(F1, of("c"), 1, of("c1")).put(F1, of("d"), 1, of("d1")));
    ReadOptions opts = ReadOptions.DEFAULT.withFamilyLimits(2, 1);
    // The offset applies per family: f2 has one cell, so it is skipped too.
    assertThat(show(r.get(of("r"), opts))).containsExactly("f1:b@5=b5", "f1:c@1=c1");
  }

  @Test
  void unknownFamiliesAreRejectedOnReadAndWrite() {
    Region r = region();
    assertThatThrownBy(() -> r.get(of("r"), ReadOptions.DEFAULT.withColumns(columns(of("nope"), null))))
        .isInstanceOf(UnknownFamilyException.class).hasMessageContaining("nope");
    assertThatThrownBy(() -> put(r, "r", of("nope"), "q", 1, "v")).isInstanceOf(UnknownFamilyException.class);
    assertThat(show(get(r, "r"))).hasSize(3);
  }

  @Test
  void badRowsAndTimestampsAreRejected() {
    assertThatThrownBy(() -> row("")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Row length is 0");
    assertThatThrownBy(() -> row("r").put(F1, of("q"), -5, of("v"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
    Region r = region();
    assertThatThrownBy(() -> r.get(new byte[0], ReadOptions.DEFAULT)).isInstanceOf(InvalidMutationException.class);
  }

  @Test
  void dataAndSchemaSurviveCloseAndReopen() {
    Region r = region();
    r.close();
    Region again = fixture().engine.open(fixture().dir.resolve("region"));
    assertThat(again.descriptor().families()).extracting(FamilySchema::maxVersions).containsExactly(3, 5);
    assertThat(show(get(again, "r"))).containsExactly("f1:a@5=a5", "f1:b@5=b5", "f2:c@5=c5");
    assertThat(again.stats().cellCount()).isEqualTo(11);
  }

  /**
   * A row wider than a row record's chunk is several records: a Get reads every one of them and stops at the row's
   * end without the next row, and the version trim after a put to its last chunk keeps VERSIONS there.
   */
  @Test
  void aRowOfSeveralChunksReadsWholeAndTrimsInItsLastChunk() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(2));
    String wide = "v".repeat(1000);
    apply(r, row("a").put(F1, of("q"), 1, of("before")));
    RowMutation.Builder b = row("b");
    for (int q = 0; q < 60; q++) {
      b.put(F1, of(String.format("q%03d", q)), 1, of(wide + q));
    }
    apply(r, b);
    apply(r, row("c").put(F1, of("q"), 1, of("after")));
    for (long ts = 2; ts <= 5; ts++) {
      apply(r, row("b").put(F1, of("q059"), ts, of("last" + ts)));
    }
    List<Cell> all = getAll(r, "b");
    assertThat(all).hasSize(61).allSatisfy(c -> assertThat(new String(c.row())).isEqualTo("b"));
    assertThat(show(all.subList(59, 61))).containsExactly("f1:q059@5=last5", "f1:q059@4=last4");
    assertThat(new String(all.get(30).value())).isEqualTo(wide + 30);
    assertThat(show(r.get(of("b"), ReadOptions.DEFAULT.withColumns(columns(F1, "q059")).withMaxVersions(5))))
        .containsExactly("f1:q059@5=last5", "f1:q059@4=last4");
    assertThat(show(get(r, "a"))).containsExactly("f1:q@1=before");
    assertThat(show(get(r, "c"))).containsExactly("f1:q@1=after");
  }
}
