package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import org.junit.jupiter.api.Test;

class DeleteSemanticsTest extends RegionTestBase {
  private Region versioned(KeepDeletedCells kdc) {
    return fixture().create(FamilySchema.of("f1").withMaxVersions(10).withKeepDeletedCells(kdc), FamilySchema.of("f2"));
  }

  private void fill(Region r) {
    for (long ts = 1; ts <= 4; ts++) {
      apply(r, row("r").put(F1, of("a"), ts, of("a" + ts)).put(F1, of("b"), ts, of("b" + ts)));
    }
  }

  @Test
  void versionDeleteMasksExactlyOneTimestamp() {
    Region r = versioned(KeepDeletedCells.FALSE);
    fill(r);
    apply(r, row("r").deleteVersion(F1, of("a"), 3));
    assertThat(show(getAll(r, "r"))).containsExactly(
        "f1:a@4=a4", "f1:a@2=a2", "f1:a@1=a1", "f1:b@4=b4", "f1:b@3=b3", "f1:b@2=b2", "f1:b@1=b1");
  }

  @Test
  void columnDeleteMasksTimestampsAtOrBelow() {
    Region r = versioned(KeepDeletedCells.FALSE);
    fill(r);
    apply(r, row("r").deleteColumn(F1, of("a"), 3));
    assertThat(show(getAll(r, "r"))).containsExactly("f1:a@4=a4", "f1:b@4=b4", "f1:b@3=b3", "f1:b@2=b2", "f1:b@1=b1");
  }

  @Test
  void familyDeleteMasksAllColumnsAtOrBelow() {
    Region r = versioned(KeepDeletedCells.FALSE);
    fill(r);
    put(r, "r", F2, "x", 1, "x1");
    apply(r, row("r").deleteFamily(F1, 2));
    assertThat(show(getAll(r, "r"))).containsExactly("f1:a@4=a4", "f1:a@3=a3", "f1:b@4=b4", "f1:b@3=b3", "f2:x@1=x1");
  }

  @Test
  void familyVersionDeleteMasksAllColumnsAtExactlyThatTimestamp() {
    Region r = versioned(KeepDeletedCells.FALSE);
    fill(r);
    apply(r, row("r").deleteFamilyVersion(F1, 2));
    assertThat(show(getAll(r, "r"))).containsExactly(
        "f1:a@4=a4", "f1:a@3=a3", "f1:a@1=a1", "f1:b@4=b4", "f1:b@3=b3", "f1:b@1=b1");
  }

  @Test
  void putAfterDeleteWithOlderTimestampStaysMasked() {
    Region r = versioned(KeepDeletedCells.FALSE);
    apply(r, row("r").deleteFamily(F1, 100));
    put(r, "r", F1, "a", 50, "late");
    apply(r, row("r").deleteColumn(F1, of("b"), 100));
    put(r, "r", F1, "b", 100, "same-ts");
    assertThat(getAll(r, "r")).isEmpty();
    put(r, "r", F1, "a", 101, "newer");
    assertThat(show(getAll(r, "r"))).containsExactly("f1:a@101=newer");
    r.maintain();
    assertThat(show(getAll(r, "r"))).containsExactly("f1:a@101=newer");
    put(r, "r", F1, "a", 99, "still masked after purge");
    assertThat(show(getAll(r, "r"))).containsExactly("f1:a@101=newer");
  }

  @Test
  void latestVersionDeleteMasksNewestVisibleVersion() {
    Region r = versioned(KeepDeletedCells.FALSE);
    fill(r);
    apply(r, row("r").deleteVersion(F1, of("a"), io.basalt.storage.mutation.RowMutation.LATEST));
    assertThat(show(r.get(of("r"), io.basalt.storage.read.ReadOptions.DEFAULT.withColumns(columns(F1, "a")))))
        .containsExactly("f1:a@3=a3");
    apply(r, row("r").deleteVersion(F1, of("a"), io.basalt.storage.mutation.RowMutation.LATEST));
    assertThat(show(r.get(of("r"), io.basalt.storage.read.ReadOptions.DEFAULT.withColumns(columns(F1, "a")))))
        .containsExactly("f1:a@2=a2");
  }

  @Test
  void repeatedLatestVersionDeletesInOneMutationMaskSuccessiveVersions() {
    Region r = versioned(KeepDeletedCells.FALSE);
    fill(r);
    long latest = io.basalt.storage.mutation.RowMutation.LATEST;
    apply(r, row("r").deleteVersion(F1, of("a"), latest).deleteVersion(F1, of("a"), latest));
    assertThat(show(r.get(of("r"), io.basalt.storage.read.ReadOptions.DEFAULT.withColumns(columns(F1, "a")).withMaxVersions(5))))
        .containsExactly("f1:a@2=a2", "f1:a@1=a1");
  }

  @Test
  void latestColumnAndFamilyDeletesUseNow() {
    Region r = versioned(KeepDeletedCells.FALSE);
    fill(r);
    fixture().clock.set(3_000);
    put(r, "r", F1, "c", 5_000, "future");
    apply(r, row("r").deleteFamily(F1, io.basalt.storage.mutation.RowMutation.LATEST));
    assertThat(show(getAll(r, "r"))).containsExactly("f1:c@5000=future");
  }

  @Test
  void keepDeletedCellsLetsTimeRangeReadsBeforeTheMarkerSeeDeletedCells() {
    Region r = versioned(KeepDeletedCells.TRUE);
    fill(r);
    apply(r, row("r").deleteColumn(F1, of("a"), 3));
    // Default time range includes the marker: masked as usual.
    assertThat(show(getAll(r, "r"))).containsExactly("f1:a@4=a4", "f1:b@4=b4", "f1:b@3=b3", "f1:b@2=b2", "f1:b@1=b1");
    // A range ending before the marker does not apply it.
    assertThat(show(getRange(r, "r", 0, 3))).containsExactly("f1:a@2=a2", "f1:a@1=a1", "f1:b@2=b2", "f1:b@1=b1");
    r.maintain();
    assertThat(show(getRange(r, "r", 0, 3))).containsExactly("f1:a@2=a2", "f1:a@1=a1", "f1:b@2=b2", "f1:b@1=b1");
  }

  @Test
  void withoutKeepDeletedCellsTimeRangeReadsStillSeeMasking() {
    Region r = versioned(KeepDeletedCells.FALSE);
    fill(r);
    apply(r, row("r").deleteColumn(F1, of("a"), 3));
    assertThat(show(getRange(r, "r", 0, 3))).containsExactly("f1:b@2=b2", "f1:b@1=b1");
  }

  @Test
  void deletesAndPutsInOneMutationAreAtomicAcrossFamilies() {
    Region r = versioned(KeepDeletedCells.FALSE);
    fill(r);
    apply(r, row("r").deleteFamily(F1, 10).put(F2, of("z"), 7, of("z7")).put(F1, of("n"), 11, of("n11")));
    assertThat(show(getAll(r, "r"))).containsExactly("f1:n@11=n11", "f2:z@7=z7");
  }
}
