package io.basalt.bench.storage;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.KeyRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The split primitives on regions of a given size: {@code midpointRow()} on the open region, then close,
 * {@code cloneClosed} into two daughters, and {@code openRestricted} of each daughter to its half.
 */
final class SplitBench {
  /** Midpoint calls after the first, whose median is reported. */
  private static final int MIDPOINT_REPEATS = 5;

  private SplitBench() {}

  static SplitResult run(BenchContext ctx, long mb) throws InterruptedException {
    Settings s = ctx.settings;
    long rows = s.rowsFor(mb);
    ctx.out.printf("%nsplit: %d MB region, %,d rows of %d bytes, JE cache %d MB%n", mb, rows, s.valueBytes(), s.writeCacheMb());
    Path source = ctx.root.resolve("split-" + mb + "mb");
    Path[] daughters = {ctx.root.resolve("split-" + mb + "mb-a"), ctx.root.resolve("split-" + mb + "mb-b")};
    JeStorageEngine engine = ctx.openEngine(s.writeCacheMb());
    try {
      Region region = engine.create(source, Keys.descriptor());
      long loadNanos;
      byte[] mid;
      long midFirst;
      long[] midRepeats = new long[MIDPOINT_REPEATS];
      long closeNanos;
      try {
        loadNanos = Loader.load(region, rows, s.loadThreads(), s.loadDurability(), s.valueBytes(), ctx.out);
        ctx.out.printf("  loaded in %.1f s (%,.0f rows/s, %d threads, %s)%n", loadNanos / 1e9, rows * 1e9 / loadNanos,
            s.loadThreads(), s.loadDurability());
        long t0 = System.nanoTime();
        Optional<byte[]> found = region.midpointRow();
        midFirst = System.nanoTime() - t0;
        mid = found.orElseThrow(() -> new BenchFailure("no midpoint row in a region of " + rows + " rows"));
        for (int i = 0; i < MIDPOINT_REPEATS; i++) {
          long t = System.nanoTime();
          region.midpointRow();
          midRepeats[i] = System.nanoTime() - t;
        }
      } finally {
        long t = System.nanoTime();
        region.close();
        closeNanos = System.nanoTime() - t;
      }
      Arrays.sort(midRepeats);
      long midMedian = midRepeats[MIDPOINT_REPEATS / 2];
      ctx.out.printf("  midpoint row %s (of rows 0..%d): first call %.2f ms, median of next %d %.2f ms%n",
          Bytes.toStringBinary(mid), rows - 1, midFirst / 1e6, MIDPOINT_REPEATS, midMedian / 1e6);
      long logBytes = segmentBytes(source);
      ctx.out.printf("  closed in %.1f ms; %d log segments, %.1f MB%n", closeNanos / 1e6, segmentCount(source),
          logBytes / (double) Settings.MB);

      long[] cloneNanos = new long[2];
      long[] copied = new long[2];
      for (int i = 0; i < 2; i++) {
        long t = System.nanoTime();
        copied[i] = engine.cloneClosed(source, daughters[i]);
        cloneNanos[i] = System.nanoTime() - t;
      }
      KeyRange[] ranges = {new KeyRange(Bytes.EMPTY, mid), new KeyRange(mid, Bytes.EMPTY)};
      long[] openNanos = new long[2];
      long[] cells = new long[2];
      for (int i = 0; i < 2; i++) {
        long t = System.nanoTime();
        Region daughter = engine.openRestricted(daughters[i], ranges[i]);
        openNanos[i] = System.nanoTime() - t;
        try {
          cells[i] = daughter.stats().cellCount();
        } finally {
          daughter.close();
        }
      }
      for (int i = 0; i < 2; i++) {
        ctx.out.printf("  daughter %s %s: cloned in %.1f ms (%,d bytes copied), openRestricted in %.1f ms, %,d cells%n",
            i == 0 ? "A" : "B", ranges[i], cloneNanos[i] / 1e6, copied[i], openNanos[i] / 1e6, cells[i]);
      }
      if (cells[0] + cells[1] != rows) {
        throw new BenchFailure("daughters hold " + cells[0] + " + " + cells[1] + " cells, the region had " + rows);
      }
      return new SplitResult(mb, rows, logBytes, loadNanos, midFirst, midMedian, closeNanos, cloneNanos, copied,
          openNanos, cells);
    } finally {
      ctx.closeEngine();
      ctx.delete(source);
      for (Path d : daughters) {
        ctx.delete(d);
      }
    }
  }

  private static Stream<Path> segments(Path dir) throws IOException {
    return Files.list(dir).filter(p -> p.getFileName().toString().endsWith(".jdb"));
  }

  private static long segmentBytes(Path dir) {
    try (Stream<Path> files = segments(dir)) {
      return files.mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long segmentCount(Path dir) {
    try (Stream<Path> files = segments(dir)) {
      return files.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
