package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.segment.LogSegmentSet;
import io.basalt.storage.segment.SegmentLinker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.junit.jupiter.api.Test;

/** A snapshot is the live region's segment set hard-linked elsewhere; a clone of it opens as the region then. */
class SnapshotLinkTest extends RegionTestBase {
  private static String rowKey(int i) {
    return String.format("row%06d", i);
  }

  @Test
  void aLinkedSetClonesToTheRegionAsItWasWhileTheRegionChangesOn() throws IOException {
    fx = new RegionFixture(dir, StorageConfig.DEFAULT.withCacheBytes(16L << 20).withLogFileBytes(1L << 20)
        .withPurgeIntervalMillis(0));
    JeRegion r = (JeRegion) fx.create(FamilySchema.of("f1"));
    byte[] value = new byte[500];
    for (int i = 0; i < 4000; i++) {
      r.mutate(RowMutation.of(of(rowKey(i))).put(F1, of("q"), 1, value).build(), Durability.SYNC_WAL);
    }
    Path snap = dir.resolve("snap");
    SegmentLinker.Linked linked;
    try (LogSegmentSet set = r.checkpointedSegments()) {
      linked = SegmentLinker.link(LocalStorageFiles.INSTANCE, set, snap, false);
      assertThat(linked.files()).isEqualTo(set.files().size()).isGreaterThan(1);
      assertThat(linked.bytesCopied()).isZero();
      for (Path p : set.files()) {
        Object a = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
        Object b = Files.readAttributes(snap.resolve(p.getFileName()), BasicFileAttributes.class).fileKey();
        assertThat(b).as("a link, not a copy: %s", p).isEqualTo(a);
      }
    }
    // The region goes on: rows deleted and added, cleaned hard; the snapshot's files stay whole.
    for (int i = 0; i < 4000; i += 2) {
      r.mutate(RowMutation.of(of(rowKey(i))).deleteFamily(F1, 10).build(), Durability.SYNC_WAL);
    }
    put(r, "zz-after", F1, "q", 1, "late");
    r.maintain();
    r.reclaimSpace();

    Path clone = dir.resolve("clone");
    fx.engine.cloneClosed(snap, clone);
    Region c = fx.engine.open(clone);
    assertThat(scanAll(c, ScanSpec.all())).hasSize(4000);
    assertThat(get(c, "zz-after")).isEmpty();
    put(c, "clone-only", F1, "q", 1, "x");
    assertThat(get(r, "clone-only")).as("the clone writes its own files").isEmpty();
    assertThat(scanAll(r, ScanSpec.all())).hasSize(2001);
    c.close();
    // A second clone of the same snapshot is as the first was: the clone's writes went to its own tail copy.
    Region again = fx.engine.open(cloneOf(snap, "clone2"));
    assertThat(scanAll(again, ScanSpec.all())).hasSize(4000);
    assertThat(get(again, "clone-only")).isEmpty();
  }

  @Test
  void copyingTheNewestKeepsItApartAndANonEmptyTargetIsRefused() throws IOException {
    Region r = fixture().create(FamilySchema.of("f1"));
    put(r, "a", F1, "q", 1, "v");
    Path snap = dir.resolve("snap");
    try (LogSegmentSet set = r.logSegments()) {
      SegmentLinker.Linked linked = SegmentLinker.link(LocalStorageFiles.INSTANCE, set, snap, true);
      assertThat(linked.bytesCopied()).isPositive();
      Path newest = set.files().get(set.files().size() - 1);
      assertThat(Files.readAttributes(snap.resolve(newest.getFileName()), BasicFileAttributes.class).fileKey())
          .isNotEqualTo(Files.readAttributes(newest, BasicFileAttributes.class).fileKey());
      assertThatThrownBy(() -> SegmentLinker.link(LocalStorageFiles.INSTANCE, set, snap, false))
          .isInstanceOf(StorageException.class).hasMessageContaining("not empty");
    }
  }

  private Path cloneOf(Path snap, String name) {
    Path target = dir.resolve(name);
    fx.engine.cloneClosed(snap, target);
    return target;
  }
}
