package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanBudget;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Raw scans (markers as cells, HBase's version rules for them) and rows cut by a size budget. */
class RawAndPartialScanTest extends RegionTestBase {
  private static final ReadOptions RAW = ReadOptions.DEFAULT.withRaw(true).withMaxVersions(10);

  private static List<String> raw(List<RowResult> results) {
    List<String> out = new ArrayList<>();
    for (RowResult r : results) {
      for (Cell c : r.cells()) {
        out.add(Bytes.toStringBinary(c.row()) + "/" + Bytes.toStringBinary(c.qualifier()) + "@" + c.timestamp() + "/"
            + c.type());
      }
    }
    return out;
  }

  @Test
  void rawScanReturnsAllFourMarkerKindsInHBaseOrder() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(10).withKeepDeletedCells(KeepDeletedCells.TRUE));
    apply(r, row("a").put(F1, of("q"), 5, of("v5")).put(F1, of("q"), 3, of("v3")).put(F1, of(""), 6, of("e")));
    apply(r, row("a").deleteVersion(F1, of("q"), 3).deleteColumn(F1, of("q"), 4));
    apply(r, row("a").deleteFamily(F1, 2).deleteFamilyVersion(F1, 7));
    assertThat(raw(scanAll(r, ScanSpec.all().withRead(RAW)))).containsExactly(
        "a/@7/DELETE_FAMILY_VERSION", "a/@6/PUT", "a/@2/DELETE_FAMILY", // interleaved with the empty qualifier
        "a/q@5/PUT", "a/q@4/DELETE_COLUMN", "a/q@3/DELETE", "a/q@3/PUT");
    // A normal read of the same row sees only what the markers leave.
    assertThat(show(get(r, "a"))).containsExactly("f1:@6=e", "f1:q@5=v5");
  }

  @Test
  void rawVersionsCountPutsOnlyAndTheTimeRangeAppliesToMarkers() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(10).withKeepDeletedCells(KeepDeletedCells.TRUE));
    apply(r, row("a").put(F1, of("q"), 5, of("v5")).put(F1, of("q"), 3, of("v3")).deleteVersion(F1, of("q"), 4)
        .deleteColumn(F1, of("q"), 2));
    // One version: the newest put, then the markers up to the next put.
    assertThat(raw(scanAll(r, ScanSpec.all().withRead(RAW.withMaxVersions(1)))))
        .containsExactly("a/q@5/PUT", "a/q@4/DELETE");
    assertThat(raw(scanAll(r, ScanSpec.all().withRead(RAW.withTimeRange(new TimeRange(2, 4))))))
        .containsExactly("a/q@3/PUT", "a/q@2/DELETE_COLUMN");
  }

  @Test
  void rawScanOfAFamilyThatDropsDeletedCellsShowsWhatThePurgeKeeps() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(10));
    apply(r, row("a").put(F1, of("q"), 5, of("v5")).put(F1, of("q"), 3, of("v3")));
    apply(r, row("a").deleteColumn(F1, of("q"), 4));
    List<String> before = raw(scanAll(r, ScanSpec.all().withRead(RAW)));
    assertThat(before).containsExactly("a/q@5/PUT", "a/q@4/DELETE_COLUMN");
    r.maintain();
    assertThat(raw(scanAll(r, ScanSpec.all().withRead(RAW)))).isEqualTo(before);
  }

  @Test
  void aSizeBudgetCutsAWideRowAfterTheCellThatReachesIt() {
    Region r = fixture().create(FamilySchema.of("f1"));
    var b = row("a");
    for (int i = 0; i < 10; i++) {
      b.put(F1, of("q" + i), 1, of("v"));
    }
    apply(r, b);
    put(r, "b", F1, "q", 1, "v");
    try (RegionScanner s = r.scan(ScanSpec.all())) {
      // Each cell weighs 10: the call stops at the cell that makes 30, mid-row, flagged partial.
      List<RowResult> first = s.next(new ScanBudget(100, 30, true, c -> 10, Long.MAX_VALUE));
      assertThat(rows(first)).containsExactly("a(partial)[f1:q0@1=v, f1:q1@1=v, f1:q2@1=v]");
      List<RowResult> rest = s.next(new ScanBudget(100, 1000, true, c -> 10, Long.MAX_VALUE));
      assertThat(rest).hasSize(2);
      assertThat(rest.get(0).cells()).hasSize(7);
      assertThat(rest.get(0).partial()).isFalse();
    }
    try (RegionScanner s = r.scan(ScanSpec.all())) {
      // Without cutRows the row comes back whole and the call stops after it.
      assertThat(rows(s.next(new ScanBudget(100, 30, false, c -> 10, Long.MAX_VALUE))))
          .containsExactly("a[f1:q0@1=v, f1:q1@1=v, f1:q2@1=v, f1:q3@1=v, f1:q4@1=v, f1:q5@1=v, f1:q6@1=v, "
              + "f1:q7@1=v, f1:q8@1=v, f1:q9@1=v]");
    }
    try (RegionScanner s = r.scan(ScanSpec.all().withBatch(4))) {
      // Batch cuts within the call; the size cut ends it.
      assertThat(rows(s.next(new ScanBudget(100, 60, true, c -> 10, Long.MAX_VALUE)))).containsExactly(
          "a(partial)[f1:q0@1=v, f1:q1@1=v, f1:q2@1=v, f1:q3@1=v]", "a(partial)[f1:q4@1=v, f1:q5@1=v]");
    }
  }

  @Test
  void aCutAtTheRowsLastVisibleCellIsPartialOnlyWhenAStoredKeyOfTheRowFollows() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(10).withKeepDeletedCells(KeepDeletedCells.TRUE));
    // Row a: two visible cells, then q2's older version (beyond the scan's one version) and a deleted cell.
    apply(r, row("a").put(F1, of("q1"), 5, of("v")).put(F1, of("q2"), 5, of("v")).put(F1, of("q2"), 3, of("old"))
        .put(F1, of("q3"), 2, of("gone")));
    apply(r, row("a").deleteColumn(F1, of("q3"), 2));
    // Row b: two visible cells and nothing else; row c follows.
    apply(r, row("b").put(F1, of("q1"), 5, of("v")).put(F1, of("q2"), 5, of("v")));
    put(r, "c", F1, "q", 1, "v");
    ScanSpec oneVersionBatchTwo = ScanSpec.all().withBatch(2).withRead(ReadOptions.DEFAULT.withMaxVersions(1));
    try (RegionScanner s = r.scan(oneVersionBatchTwo)) {
      // As HBase: the batch is full at q2@5 and its scanner's next key (q2@3) is still in row a, so "more in
      // this row"; row b's batch ends at its last key, so complete.
      assertThat(rows(s.next(new ScanBudget(2, 1000, true, c -> 10, Long.MAX_VALUE))))
          .containsExactly("a(partial)[f1:q1@5=v, f1:q2@5=v]", "b[f1:q1@5=v, f1:q2@5=v]");
    }
    try (RegionScanner s = r.scan(oneVersionBatchTwo.withStop(of("b"), true))) {
      // Flagged partial but the region part ends in the same call: the flag is cleared (HBASE-21206).
      List<RowResult> all = s.next(new ScanBudget(10, 1000, true, c -> 10, Long.MAX_VALUE));
      assertThat(all.get(all.size() - 1).partial()).isFalse();
    }
    try (RegionScanner s = r.scan(ScanSpec.all().withRead(ReadOptions.DEFAULT.withMaxVersions(1)))) {
      // The size cut at row a's last visible cell: the same rule.
      assertThat(rows(s.next(new ScanBudget(10, 20, true, c -> 10, Long.MAX_VALUE))))
          .containsExactly("a(partial)[f1:q1@5=v, f1:q2@5=v]");
      // A call may begin at most maxNewRows rows.
      assertThat(rows(s.next(new ScanBudget(10, 1000, true, c -> 10, Long.MAX_VALUE, 1))))
          .containsExactly("b[f1:q1@5=v, f1:q2@5=v]");
    }
  }
}
