package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.MergeReport;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** {@link io.basalt.storage.region.StorageEngine#mergeClosed}: the smaller region's records copied into a clone of the larger one. */
class RegionMergeTest extends RegionTestBase {
  private static String rowKey(int i) {
    return String.format("row%08d", i);
  }

  @Test
  void splitDaughtersMergeBackWithEveryWriteAndNoStaleCopy() throws IOException {
    Region parent = fixture().create(FamilySchema.of("f1").withMaxVersions(3), FamilySchema.of("f2"));
    for (int i = 0; i < 1000; i++) {
      put(parent, rowKey(i), F1, "q", 1, "parent" + i);
    }
    byte[] mid = of(rowKey(400));
    parent.close();
    fx.engine.cloneClosed(dir.resolve("region"), dir.resolve("a"));
    fx.engine.cloneClosed(dir.resolve("region"), dir.resolve("b"));
    Region a = fx.engine.openRestricted(dir.resolve("a"), new KeyRange(Bytes.EMPTY, mid));
    Region b = fx.engine.openRestricted(dir.resolve("b"), new KeyRange(mid, Bytes.EMPTY));
    // Written after the split: a stale copy of b's rows in a's log must not come back.
    apply(b, row(rowKey(500)).deleteColumn(F1, of("q"), 5));
    put(b, rowKey(600), F1, "q", 2, "b-new");
    put(b, rowKey(2000), F2, "x", 2, "b-only");
    put(a, rowKey(10), F1, "q", 2, "a-new");
    a.close();
    b.close();

    MergeReport report = fx.engine.mergeClosed(dir.resolve("a"), dir.resolve("b"), dir.resolve("m"), KeyRange.ALL);
    assertThat(report.recordsCopied()).isPositive();
    // The daughters' background collection may have removed the other half already: stale keys are 0 or more.
    assertThat(report.staleDeleted()).isNotNegative();

    Region m = fx.engine.open(dir.resolve("m"));
    assertThat(m.descriptor().range()).isEqualTo(KeyRange.ALL);
    assertThat(show(get(m, rowKey(10)))).containsExactly("f1:q@2=a-new");
    assertThat(get(m, rowKey(500))).as("deleted in b after the split").isEmpty();
    assertThat(show(get(m, rowKey(600)))).containsExactly("f1:q@2=b-new");
    assertThat(show(get(m, rowKey(2000)))).containsExactly("f2:x@2=b-only");
    assertThat(show(get(m, rowKey(999)))).containsExactly("f1:q@1=parent999");
    assertThat(scanAll(m, ScanSpec.all())).hasSize(1000);
    put(m, rowKey(3000), F1, "q", 3, "merged");
    assertThat(show(get(m, rowKey(3000)))).containsExactly("f1:q@3=merged");
    m.close();

    // Both sources are as they were: a rollback reopens them.
    Region a2 = fx.engine.openRestricted(dir.resolve("a"), new KeyRange(Bytes.EMPTY, mid));
    assertThat(show(get(a2, rowKey(10)))).containsExactly("f1:q@2=a-new");
    a2.close();
    Region b2 = fx.engine.openRestricted(dir.resolve("b"), new KeyRange(mid, Bytes.EMPTY));
    assertThat(get(b2, rowKey(500))).isEmpty();
    b2.close();
  }

  @Test
  void aCellCountIsTakenAfreshForTheMergedRange() {
    Region a = fixture().create("a", new KeyRange(Bytes.EMPTY, of("m")), FamilySchema.of("f1"));
    Region b = fx.create("b", new KeyRange(of("m"), Bytes.EMPTY), FamilySchema.of("f1"));
    for (int i = 0; i < 30; i++) {
      put(a, "a" + i, F1, "q", 1, "v");
      put(b, "z" + i, F1, "q", 1, "v");
    }
    a.close();
    b.close();
    fx.engine.mergeClosed(dir.resolve("a"), dir.resolve("b"), dir.resolve("m"), KeyRange.ALL);
    Region m = fx.engine.open(dir.resolve("m"));
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> m.stats().cellCount() == 60);
    m.close();
  }

  @Test
  void regionsThatAreNotAdjacentHalvesAreRefusedAndLeaveNoTarget() {
    Region a = fixture().create("a", new KeyRange(Bytes.EMPTY, of("g")), FamilySchema.of("f1"));
    Region b = fx.create("b", new KeyRange(of("m"), Bytes.EMPTY), FamilySchema.of("f1"));
    put(a, "a", F1, "q", 1, "v");
    a.close();
    b.close();
    assertThatThrownBy(() -> fx.engine.mergeClosed(dir.resolve("a"), dir.resolve("b"), dir.resolve("m"),
        KeyRange.ALL)).isInstanceOf(StorageException.class).hasMessageContaining("not adjacent");
    assertThat(dir.resolve("m")).doesNotExist();
    Region open = fx.engine.open(dir.resolve("a"));
    assertThatThrownBy(() -> fx.engine.mergeClosed(dir.resolve("a"), dir.resolve("b"), dir.resolve("m2"),
        KeyRange.ALL)).isInstanceOf(StorageException.class).hasMessageContaining("must be closed");
    open.close();
  }

  /**
   * The cost figures of docs/elasticity.md: two adjacent regions of {@code -Dbasalt.merge.mb} MB each (default 10;
   * the docs also ran 100), merged. Prints time and bytes copied against the regions' log sizes.
   */
  @Test
  void mergeCostAgainstRegionSize() throws IOException {
    int mb = Integer.getInteger("basalt.merge.mb", 10);
    fx = new RegionFixture(dir, StorageConfig.DEFAULT.withCacheBytes(64L << 20).withPurgeIntervalMillis(0));
    int rows = mb * 1000;
    Region a = fx.create("a", new KeyRange(Bytes.EMPTY, of(rowKey(rows))), FamilySchema.of("f1"));
    Region b = fx.create("b", new KeyRange(of(rowKey(rows)), Bytes.EMPTY), FamilySchema.of("f1"));
    Random rnd = new Random(1);
    byte[] value = new byte[1000];
    for (int i = 0; i < rows; i++) {
      rnd.nextBytes(value);
      a.mutate(RowMutation.of(of(rowKey(i))).put(F1, of("q"), 1, value.clone()).build(), Durability.SKIP_WAL);
      // b a little smaller, so that it is the one copied
      if (i % 10 != 0) {
        b.mutate(RowMutation.of(of(rowKey(rows + i))).put(F1, of("q"), 1, value.clone()).build(), Durability.SKIP_WAL);
      }
    }
    a.close();
    b.close();
    long aBytes = logBytes(dir.resolve("a"));
    long bBytes = logBytes(dir.resolve("b"));
    MergeReport r = fx.engine.mergeClosed(dir.resolve("a"), dir.resolve("b"), dir.resolve("m"), KeyRange.ALL);
    long mBytes = logBytes(dir.resolve("m"));
    System.out.printf("merge of %d MB + %d MB logs: %d ms, %d records (%d MB) copied, tail %d KB, merged log %d MB%n",
        aBytes >> 20, bBytes >> 20, r.millis(), r.recordsCopied(), r.bytesCopied() >> 20, r.tailBytes() >> 10,
        mBytes >> 20);
    assertThat(r.recordsCopied()).isGreaterThanOrEqualTo(rows - rows / 10);
    Region m = fx.engine.open(dir.resolve("m"));
    assertThat(get(m, rowKey(0))).hasSize(1);
    assertThat(get(m, rowKey(2 * rows - 1))).hasSize(1);
    m.close();
  }

  private static long logBytes(Path d) throws IOException {
    long total = 0;
    for (Path p : LocalStorageFiles.INSTANCE.listSegments(d)) {
      total += Files.size(p);
    }
    return total;
  }
}
