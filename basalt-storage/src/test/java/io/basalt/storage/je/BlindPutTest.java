package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import com.sleepycat.je.StatsConfig;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Format 3's blind puts ({@link RowDelta}): a puts-only mutation of a stored row does not read the row's record, reads
 * see the row as if each put had rewritten it, deltas per row stay few, and a compaction folds them all.
 */
class BlindPutTest extends RegionTestBase {
  private static final StatsConfig CLEAR = new StatsConfig().setClear(true);
  private static final String FIRST = "first".repeat(100);

  @Test
  void aPutToAStoredRowReadsNoRecordWhereFormatTwoReadsIt() {
    JeRegion blind = (JeRegion) fixture().createInFormat(3, "blind", FamilySchema.of("f1"));
    JeRegion inPlace = (JeRegion) fixture().createInFormat(2, "in-place", FamilySchema.of("f1"));
    List<Long> fetches = new ArrayList<>();
    for (JeRegion r : List.of(blind, inPlace)) {
      List<RowMutation> load = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        load.add(row("r" + i).put(F1, of("a"), 1, of(FIRST)).build()); // not embedded in JE's leaf
      }
      assertThat(r.mutateBatch(load, Durability.SYNC_WAL).allApplied()).isTrue();
      r.environment().getStats(CLEAR); // the engine's environments share one cache, and its counts
      for (int i = 0; i < 50; i++) {
        put(r, "r" + i, F1, "b", 2, "second");
      }
      fetches.add(r.environment().getStats(CLEAR).getNLNsFetch());
    }
    assertThat(fetches.get(1)).as("records format 2 read for 50 puts").isGreaterThanOrEqualTo(50);
    assertThat(fetches.get(0)).as("records format 3 read for 50 puts").isZero();
    assertThat(show(get(blind, "r7"))).containsExactly("f1:a@1=" + FIRST, "f1:b@2=second");
    assertThat(records(blind)).isEqualTo(100);
  }

  @Test
  void aRowKeepsFewDeltasAndAPutThatReadsItFoldsThem() {
    JeRegion r = (JeRegion) fixture().createInFormat(3, "r", FamilySchema.of("f1").withMaxVersions(2));
    put(r, "row", F1, "q", 1, "v1");
    for (int ts = 2; ts <= 1 + RowDelta.MAX_PER_ROW; ts++) {
      put(r, "row", F1, "q", ts, "v" + ts);
    }
    assertThat(records(r)).isEqualTo(1 + RowDelta.MAX_PER_ROW);
    assertThat(r.stats().cellCount()).isEqualTo(1 + RowDelta.MAX_PER_ROW);
    put(r, "row", F1, "q", 9, "v9"); // one delta too many: read and rewritten, its deltas folded in
    assertThat(records(r)).isEqualTo(1);
    assertThat(r.stats().cellCount()).isEqualTo(2);
    assertThat(show(getAll(r, "row"))).containsExactly("f1:q@9=v9", "f1:q@5=v5");

    put(r, "row", F1, "q", 10, "v10");
    assertThat(records(r)).isEqualTo(2);
    apply(r, row("row").deleteColumn(F1, of("other"), 1)); // not puts only: reads the row, so folds it
    assertThat(records(r)).isEqualTo(1);
    assertThat(show(getAll(r, "row"))).containsExactly("f1:q@10=v10", "f1:q@9=v9");
  }

  /**
   * Each delta is trimmed to VERSIONS as its put would have been, so a delete of the newest version shows nothing
   * older than a rewrite would have kept; raw reads and reverse scans see the same as in format 2.
   */
  @Test
  void readsAnswerAsIfEachPutHadRewrittenTheRow() {
    Region blind = fixture().createInFormat(3, "blind", FamilySchema.of("f1").withMaxVersions(2));
    Region inPlace = fixture().createInFormat(2, "in-place", FamilySchema.of("f1").withMaxVersions(2));
    List<List<String>> answers = new ArrayList<>();
    for (Region r : List.of(blind, inPlace)) {
      for (String row : List.of("a", "b", "c")) {
        apply(r, row(row).put(F1, of("q"), 1, of(row + "1")).deleteFamily(F1, 0));
        for (int ts = 2; ts <= 4; ts++) {
          apply(r, row(row).put(F1, of("q"), ts, of(row + ts)).put(F1, of("z" + ts), ts, of("z")));
        }
      }
      List<String> answer = new ArrayList<>();
      ReadOptions all = ReadOptions.DEFAULT.withMaxVersions(Integer.MAX_VALUE);
      answer.addAll(rows(scanAll(r, ScanSpec.all().withRead(all.withRaw(true)))));
      answer.addAll(rows(scanAll(r, ScanSpec.all().withRead(all).reversed(true))));
      apply(r, row("b").deleteVersion(F1, of("q"), 4));
      answer.addAll(show(getAll(r, "b")));
      answer.addAll(rows(scanAll(r, ScanSpec.all().withRead(all.withRaw(true)))));
      answers.add(answer);
    }
    assertThat(answers.get(0)).isEqualTo(answers.get(1));
    assertThat(show(getAll(blind, "b"))).doesNotContain("f1:q@2=b2").contains("f1:q@3=b3");
  }

  @Test
  void aCompactionFoldsEveryRowAndCountsExactly() {
    JeRegion r = (JeRegion) fixture().createInFormat(3, "r", FamilySchema.of("f1"));
    List<RowMutation> load = new ArrayList<>();
    List<RowMutation> overwrite = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      load.add(row(String.format("r%04d", i)).put(F1, of("q"), 1, of("old")).build());
      overwrite.add(row(String.format("r%04d", i)).put(F1, of("q"), 2, of("new")).build());
    }
    assertThat(r.mutateBatch(load, Durability.SYNC_WAL).allApplied()).isTrue();
    assertThat(r.mutateBatch(overwrite, Durability.SYNC_WAL).allApplied()).isTrue();
    assertThat(records(r)).isEqualTo(1000);
    assertThat(r.stats().cellCount()).isEqualTo(1000);
    assertThat(show(get(r, "r0123"))).containsExactly("f1:q@2=new");

    assertThat(r.compact(true).entriesRemoved()).isEqualTo(500);
    assertThat(records(r)).isEqualTo(500);
    assertThat(r.stats().cellCount()).isEqualTo(500);
    assertThat(show(get(r, "r0123"))).containsExactly("f1:q@2=new");
  }

  @Test
  void aWideRowIsWrittenInPlace() {
    JeRegion r = (JeRegion) fixture().createInFormat(3, "r", FamilySchema.of("f1"));
    RowMutation.Builder wide = row("wide");
    for (int q = 0; q < 400; q++) {
      wide.put(F1, of(String.format("c%04d", q)), 1, of("x".repeat(100)));
    }
    apply(r, wide);
    long chunks = records(r);
    assertThat(chunks).as("a row over %d bytes", RowRecordCursor.CHUNK_BYTES).isGreaterThan(1);
    put(r, "wide", F1, "c0001", 2, "changed");
    assertThat(records(r)).isEqualTo(chunks);
    assertThat(show(get(r, "wide")).get(1)).isEqualTo("f1:c0001@2=changed");
  }

  private static long records(JeRegion r) {
    return r.familyStores().get(0).db().count();
  }
}
