package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.error.RowOutOfRangeException;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.segment.LogSegmentSet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ElasticityTest extends RegionTestBase {
  private static final int VALUE_BYTES = 1000;

  private static String rowKey(int i) {
    return String.format("row%08d", i);
  }

  private static void load(Region r, int rows, Durability durability) {
    Random rnd = new Random(rows);
    byte[] value = new byte[VALUE_BYTES];
    for (int i = 0; i < rows; i++) {
      rnd.nextBytes(value);
      r.mutate(RowMutation.of(of(rowKey(i))).put(F1, of("q"), 1, value.clone()).build(), durability);
    }
  }

  /**
   * Format 1 splits the keys in half, one key a cell version; format 2 the records, one a row (or a chunk of a
   * wide row), so a row's versions weigh as one.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void midpointSplitsKeysInHalf(int format) {
    Region r = fixture().createInFormat(format, "r", FamilySchema.of("f1").withMaxVersions(10), FamilySchema.of("f2"));
    assertThat(r.midpointRow()).isEmpty();
    put(r, "only", F1, "q", 1, "v");
    put(r, "only", F1, "q", 2, "v");
    assertThat(r.midpointRow()).as("one row cannot be split").isEmpty();
    for (int i = 0; i < 1000; i++) {
      // Early rows are wide: the middle by keys is not the middle by rows.
      int versions = i < 100 ? 10 : 1;
      for (int v = 1; v <= versions; v++) {
        put(r, rowKey(i), F1, "q", v, "x");
      }
    }
    byte[] mid = r.midpointRow().orElseThrow();
    long below = 0;
    long total = 0;
    for (int i = 0; i < 1000; i++) {
      int versions = format == 1 && i < 100 ? 10 : 1;
      total += versions;
      if (Bytes.compare(of(rowKey(i)), mid) < 0) {
        below += versions;
      }
    }
    assertThat((double) below / total).isBetween(0.45, 0.55);
  }

  @Test
  void logSegmentSetIsImmutableWhileTheRegionKeepsServing() throws IOException {
    fx = new RegionFixture(dir, StorageConfig.DEFAULT.withCacheBytes(16L << 20).withLogFileBytes(1L << 20).withPurgeIntervalMillis(0));
    JeRegion r = (JeRegion) fx.create(FamilySchema.of("f1"));
    load(r, 5000, Durability.SKIP_WAL);
    try (LogSegmentSet set = r.logSegments()) {
      assertThat(set.files()).hasSizeGreaterThan(3);
      Map<Path, Long> crcs = new HashMap<>();
      for (Path p : set.files()) {
        crcs.put(p, crc(p));
      }
      // Overwrite everything, delete half, and clean hard: the set's files must not change or vanish.
      load(r, 5000, Durability.SKIP_WAL);
      for (int i = 0; i < 5000; i += 2) {
        r.mutate(RowMutation.of(of(rowKey(i))).deleteColumn(F1, of("q"), 10).build(), Durability.SKIP_WAL);
      }
      r.maintain();
      r.reclaimSpace();
      for (Path p : set.files()) {
        assertThat(crc(p)).as("segment %s", p).isEqualTo(crcs.get(p));
      }
      assertThat(set.lastSegment()).isGreaterThanOrEqualTo(0);
      assertThatThrownBy(r::logSegments).as("one set at a time").isInstanceOf(IllegalStateException.class);
      assertThat(r.isCleaning()).as("cleaning paused while the set is open").isFalse();
    }
    assertThat(r.isCleaning()).isTrue();
    try (LogSegmentSet later = r.logSegmentsAfter(0)) {
      assertThat(later.files()).noneMatch(p -> p.getFileName().toString().equals("00000000.jdb"));
    }
  }

  @Test
  void closingEndsAnOpenSegmentSetAndACopyOfTheClosedSegmentsOpensAsTheRegion() throws IOException {
    fx = new RegionFixture(dir, StorageConfig.DEFAULT.withCacheBytes(16L << 20).withLogFileBytes(1L << 20).withPurgeIntervalMillis(0));
    Region r = fx.create(FamilySchema.of("f1"));
    Path regionDir = dir.resolve("region");
    load(r, 3000, Durability.SYNC_WAL);
    Path copy = dir.resolve("copy");
    Files.createDirectories(copy);
    LogSegmentSet live = r.logSegments();
    for (Path p : live.files()) {
      Files.copy(p, copy.resolve(p.getFileName()));
    }
    // More writes after the live set was taken land in newer segments only.
    for (int i = 3000; i < 4000; i++) {
      put(r, rowKey(i), F1, "q", 1, "late" + i);
    }
    assertThatThrownBy(() -> fx.engine.closedSegments(regionDir)).as("region still open").isInstanceOf(StorageException.class);
    r.close(); // JE refuses to close with a backup running: close must end the set
    live.close(); // already ended: a no-op
    try (LogSegmentSet closed = fx.engine.closedSegments(regionDir)) {
      assertThat(closed.lastSegment()).isGreaterThan(live.lastSegment());
      assertThat(closed.files()).hasSameSizeAs(io.basalt.storage.io.LocalStorageFiles.INSTANCE.listSegments(regionDir));
      assertThatThrownBy(() -> fx.engine.open(regionDir)).as("pinned").isInstanceOf(StorageException.class);
      assertThatThrownBy(() -> fx.engine.closedSegments(regionDir)).isInstanceOf(IllegalStateException.class);
      for (Path p : closed.files()) {
        Path target = copy.resolve(p.getFileName());
        assertThat(LogSegmentSet.segmentNumber(p) <= live.lastSegment())
            .as("only segments after the live set are new or changed: %s", p)
            .isEqualTo(Files.exists(target) && Files.size(target) == Files.size(p));
        Files.copy(p, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Region moved = fx.engine.open(copy);
    assertThat(moved.get(of(rowKey(10)), io.basalt.storage.read.ReadOptions.DEFAULT)).hasSize(1);
    for (int i = 3000; i < 4000; i++) {
      assertThat(moved.get(of(rowKey(i)), io.basalt.storage.read.ReadOptions.DEFAULT).get(0).value())
          .isEqualTo(of("late" + i));
    }
    moved.close();
    fx.engine.open(regionDir).close(); // the closed set no longer pins it
  }

  @Test
  void splitByCloneServesEachHalfExactlyAndReclaimsSpace() throws IOException {
    // 200 MB of 1000-byte values.
    fx = new RegionFixture(dir, StorageConfig.DEFAULT.withCacheBytes(64L << 20).withPurgeIntervalMillis(0)
        .withCollectorKeysPerSecond(200_000));
    int rows = 200_000;
    Region parent = fx.create(FamilySchema.of("f1"));
    load(parent, rows, Durability.SKIP_WAL);
    byte[] mid = parent.midpointRow().orElseThrow();
    int midIndex = Integer.parseInt(Bytes.toStringBinary(mid).substring(3));
    assertThat(midIndex).isBetween(rows / 2 - 1000, rows / 2 + 1000);
    Path parentDir = fx.dir.resolve("region");
    assertThatThrownBy(() -> fx.engine.cloneClosed(parentDir, fx.dir.resolve("x"))).isInstanceOf(StorageException.class);
    parent.close();
    Map<Path, Long> parentCrcs = new HashMap<>();
    long parentBytes = 0;
    for (Path p : io.basalt.storage.io.LocalStorageFiles.INSTANCE.listSegments(parentDir)) {
      parentCrcs.put(p, crc(p));
      parentBytes += Files.size(p);
    }
    assertThat(parentBytes).isGreaterThan(200L << 20);

    long t0 = System.nanoTime();
    long copiedA = fx.engine.cloneClosed(parentDir, fx.dir.resolve("a"));
    long copiedB = fx.engine.cloneClosed(parentDir, fx.dir.resolve("b"));
    long cloneMillis = (System.nanoTime() - t0) / 1_000_000;
    assertThat(copiedA).isLessThanOrEqualTo(StorageConfig.DEFAULT.logFileBytes());
    assertThat(copiedB).isLessThanOrEqualTo(StorageConfig.DEFAULT.logFileBytes());
    assertThat(cloneMillis).as("two clones of a 200 MB region").isLessThan(5_000);
    List<Path> parentSegments = io.basalt.storage.io.LocalStorageFiles.INSTANCE.listSegments(parentDir);
    for (int i = 0; i < parentSegments.size(); i++) {
      int links = (Integer) Files.getAttribute(parentSegments.get(i), "unix:nlink");
      // Closed segments are shared by parent and both daughters; the tail was copied into each.
      assertThat(links).as("links of %s", parentSegments.get(i).getFileName()).isEqualTo(i < parentSegments.size() - 1 ? 3 : 1);
    }

    JeRegion a = (JeRegion) fx.engine.openRestricted(fx.dir.resolve("a"), new KeyRange(Bytes.EMPTY, mid));
    JeRegion b = (JeRegion) fx.engine.openRestricted(fx.dir.resolve("b"), new KeyRange(mid, Bytes.EMPTY));

    // Each half serves exactly its range, at once (before collection finishes).
    // Counts are taken in the background after the open (the open itself does not read the whole index).
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
        .until(() -> a.stats().cellCount() == midIndex && b.stats().cellCount() == rows - midIndex);
    assertThat(firstAndLast(a)).containsExactly(rowKey(0), rowKey(midIndex - 1));
    assertThat(firstAndLast(b)).containsExactly(rowKey(midIndex), rowKey(rows - 1));
    assertThatThrownBy(() -> get(a, rowKey(midIndex))).isInstanceOf(RowOutOfRangeException.class);
    assertThatThrownBy(() -> get(b, rowKey(midIndex - 1))).isInstanceOf(RowOutOfRangeException.class);
    assertThat(get(a, rowKey(midIndex - 1))).hasSize(1);
    assertThat(get(b, rowKey(midIndex))).hasSize(1);
    put(a, rowKey(5), F1, "new", 2, "written in a");
    put(b, rowKey(rows - 5), F1, "new", 2, "written in b");

    // The collector removes the out-of-range halves and the cleaner gives the space back.
    Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> !a.stats().pendingCollection() && !b.stats().pendingCollection());
    assertThat(storedKeys(a)).isEqualTo(midIndex + 1L);
    assertThat(storedKeys(b)).isEqualTo(rows - midIndex + 1L);
    long finalParentBytes = parentBytes;
    Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> {
      a.reclaimSpace();
      b.reclaimSpace();
      return dirBytes(fx.dir.resolve("a")) < finalParentBytes * 0.8 && dirBytes(fx.dir.resolve("b")) < finalParentBytes * 0.8;
    });

    // The daughters' writes, deletes and cleaning never touched the parent's files.
    for (Map.Entry<Path, Long> e : parentCrcs.entrySet()) {
      assertThat(crc(e.getKey())).as("parent segment %s", e.getKey()).isEqualTo(e.getValue());
    }
    a.close();
    b.close();
    Region reopenedA = fx.engine.open(fx.dir.resolve("a"));
    assertThat(reopenedA.descriptor().range()).isEqualTo(new KeyRange(Bytes.EMPTY, mid));
    assertThat(reopenedA.stats().pendingCollection()).isFalse();
    assertThat(show(reopenedA.get(of(rowKey(5)), io.basalt.storage.read.ReadOptions.DEFAULT.withColumns(columns(F1, "new")))))
        .containsExactly("f1:new@2=written in a");
  }

  @Test
  void cloneOfMissingOrEmptySourceFailsCleanly() {
    assertThatThrownBy(() -> fixture().engine.cloneClosed(dir.resolve("missing"), dir.resolve("t"))).isInstanceOf(StorageException.class);
  }

  private static List<String> firstAndLast(Region r) {
    List<RowResult> first = r.scan(ScanSpec.all()).next(1, Long.MAX_VALUE);
    List<RowResult> last = r.scan(ScanSpec.all().reversed(true)).next(1, Long.MAX_VALUE);
    return List.of(Bytes.toStringBinary(first.get(0).row()), Bytes.toStringBinary(last.get(0).row()));
  }

  /** Every key physically in the family database, in range or not. */
  private static long storedKeys(JeRegion r) {
    FamilyStore f = r.familyStores().get(0);
    return f.layout().countCells(f.db(), null, null);
  }

  private static long dirBytes(Path d) throws IOException {
    long total = 0;
    for (Path p : io.basalt.storage.io.LocalStorageFiles.INSTANCE.listSegments(d)) {
      total += Files.size(p);
    }
    return total;
  }

  private static long crc(Path p) throws IOException {
    CRC32 crc = new CRC32();
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(p)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        crc.update(buf, 0, n);
      }
    }
    return crc.getValue();
  }
}
