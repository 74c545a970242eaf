package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.KeyRange;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region directory written by the release before row records (format 1, checked in as
 * {@code format-v1-region.tar.gz} with the dump of its reads, see {@link FormatFixture}) or by a release of row records
 * (format 2, {@code format-v2-region.tar.gz}, written at cbe54ec) opens with this release, reads back equal, takes
 * writes, splits and reopens, staying in its format throughout, and answers as a region this release creates given
 * the same writes.
 */
class FormatUpgradeTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "format {0}")
  @ValueSource(ints = {1, 2})
  void aRegionWrittenByAFormerReleaseServesWritesSplitsAndReopens(int format) throws Exception {
    List<String> expected = unpackFixture(format);
    try (RegionFixture fx = new RegionFixture(dir, StorageConfig.DEFAULT.withCacheBytes(16L << 20)
        .withPurgeIntervalMillis(0).withCollectorKeysPerSecond(1_000_000))) {
      fx.clock.set(FormatFixture.CLOCK);
      JeRegion old = (JeRegion) fx.engine.open(dir.resolve("region"));
      assertThat(old.metadata().formatVersion()).isEqualTo(format);
      assertThat(FormatFixture.dump(old)).isEqualTo(expected);

      // The same writes into a region this release creates read back the same.
      JeRegion fresh = (JeRegion) fx.create("fresh", KeyRange.ALL, FormatFixture.families());
      assertThat(fresh.metadata().formatVersion()).isEqualTo(RegionMetadata.NEW_REGION_FORMAT);
      FormatFixture.write(fresh);
      assertThat(FormatFixture.dump(fresh)).isEqualTo(expected);

      // Both take the same later writes, deletes and version trims alike.
      for (Region r : List.of(old, fresh)) {
        r.mutate(RowMutation.of(FormatFixture.row(5)).put(FormatFixture.A, of("q0"), FormatFixture.CLOCK, of("new"))
            .put(FormatFixture.A, of("q9"), FormatFixture.CLOCK, of("new9")).deleteColumn(FormatFixture.B, of("q1"),
                FormatFixture.CLOCK).build(), Durability.SYNC_WAL);
        r.mutate(RowMutation.of(of("row999")).put(FormatFixture.K, of("k"), FormatFixture.CLOCK, of("last")).build(),
            Durability.SYNC_WAL);
        r.mutate(RowMutation.of(of("wide")).put(FormatFixture.B, of("c00100"), FormatFixture.CLOCK, of("changed"))
            .build(), Durability.SYNC_WAL);
        for (int i = 0; i < 60; i += 7) { // puts only, to stored rows
          r.mutate(RowMutation.of(FormatFixture.row(i)).put(FormatFixture.A, of("q1"), FormatFixture.CLOCK, of("p" + i))
              .put(FormatFixture.T, of("x"), FormatFixture.CLOCK, of("t")).build(), Durability.SYNC_WAL);
        }
      }
      List<String> afterWrites = FormatFixture.dump(old);
      assertThat(FormatFixture.dump(fresh)).isEqualTo(afterWrites);
      assertThat(afterWrites).anyMatch(l -> l.startsWith("get row005 ") && l.contains("a:q0@" + FormatFixture.CLOCK
          + "/PUT=new") && l.contains("a:q9@"));
      assertThat(show(old.get(of("wide"), ReadOptions.DEFAULT.withColumns(
          io.basalt.storage.read.ColumnSelection.builder().column(FormatFixture.B, of("c00100")).build()))))
          .containsExactly("b:c00100=changed");
      fresh.close();

      // Split: both daughters are clones of the old region's log, so in its format too, and together serve it all.
      byte[] mid = old.midpointRow().orElseThrow();
      old.close();
      fx.engine.cloneClosed(dir.resolve("region"), dir.resolve("low"));
      fx.engine.cloneClosed(dir.resolve("region"), dir.resolve("high"));
      JeRegion low = (JeRegion) fx.engine.openRestricted(dir.resolve("low"), new KeyRange(Bytes.EMPTY, mid));
      JeRegion high = (JeRegion) fx.engine.openRestricted(dir.resolve("high"), new KeyRange(mid, Bytes.EMPTY));
      assertThat(low.metadata().formatVersion()).isEqualTo(format);
      assertThat(high.metadata().formatVersion()).isEqualTo(format);
      assertThat(halvesTogether(FormatFixture.dump(low), FormatFixture.dump(high))).isEqualTo(afterWrites);
      org.awaitility.Awaitility.await().atMost(60, TimeUnit.SECONDS)
          .until(() -> !low.stats().pendingCollection() && !high.stats().pendingCollection());
      high.mutate(RowMutation.of(of("wide")).put(FormatFixture.A, of("after-split"), FormatFixture.CLOCK, of("x"))
          .build(), Durability.SYNC_WAL);
      low.close();
      high.close();

      JeRegion reopened = (JeRegion) fx.engine.open(dir.resolve("high"));
      assertThat(reopened.metadata().formatVersion()).isEqualTo(format);
      assertThat(reopened.descriptor().range()).isEqualTo(new KeyRange(mid, Bytes.EMPTY));
      assertThat(show(reopened.get(of("wide"), ReadOptions.DEFAULT.withColumns(
          io.basalt.storage.read.ColumnSelection.builder().family(FormatFixture.A).build()))))
          .containsExactly("a:after-split=x");
      reopened.close();
    }
  }

  /** The dumps of two halves in the order of the whole's: three passes of scan lines, then get lines, each. */
  private static List<String> halvesTogether(List<String> low, List<String> high) {
    List<String> out = new ArrayList<>();
    List<List<String>> lowPasses = passes(low);
    List<List<String>> highPasses = passes(high);
    for (int i = 0; i < 3; i++) {
      out.addAll(lines(lowPasses.get(i), "scan "));
      out.addAll(lines(highPasses.get(i), "scan "));
      out.addAll(lines(lowPasses.get(i), "get "));
      out.addAll(lines(highPasses.get(i), "get "));
    }
    return out;
  }

  private static List<List<String>> passes(List<String> dump) {
    List<List<String>> out = new ArrayList<>();
    List<String> current = null;
    String previous = "get ";
    for (String l : dump) {
      if (l.startsWith("scan ") && previous.startsWith("get ")) {
        current = new ArrayList<>();
        out.add(current);
      }
      current.add(l);
      previous = l;
    }
    return out;
  }

  private static List<String> lines(List<String> pass, String kind) {
    return pass.stream().filter(l -> l.startsWith(kind)).toList();
  }

  private static List<String> show(List<io.basalt.storage.cell.Cell> cells) {
    return cells.stream().map(c -> Bytes.toStringBinary(c.family()) + ":" + Bytes.toStringBinary(c.qualifier()) + "="
        + Bytes.toStringBinary(c.value())).toList();
  }

  /** Unpacks the fixture into {@link #dir}; returns the dump its writer recorded. */
  private List<String> unpackFixture(int format) throws IOException, InterruptedException {
    Path archive = dir.resolve("fixture.tar.gz");
    try (InputStream in = getClass().getResourceAsStream("/format-v" + format + "-region.tar.gz")) {
      assertThat(in).as("the checked-in format-%d region", format).isNotNull();
      Files.copy(in, archive);
    }
    Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", dir.toString()).inheritIO().start();
    assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(tar.exitValue()).isZero();
    return Files.readAllLines(dir.resolve("expected.txt"), StandardCharsets.UTF_8);
  }
}
