package io.basalt.bench.storage;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Get and scan rates on a loaded region, for a data set that fits in the JE cache and one several times
 * larger: gets of random existing rows, and scans of 100 rows from a random existing row.
 */
final class ReadBench {
  static final int SCAN_ROWS = 100;

  private ReadBench() {}

  static List<RateResult> run(BenchContext ctx, boolean gets, boolean scans) throws InterruptedException {
    Settings s = ctx.settings;
    List<RateResult> results = new ArrayList<>();
    JeStorageEngine engine = ctx.openEngine(s.readCacheMb());
    try {
      for (long mb : List.of(s.fitMb(), s.bigMb())) {
        String data = String.format("%d MB, %s", mb, cacheRelation(mb, s.readCacheMb()));
        long rows = s.rowsFor(mb);
        if (rows < SCAN_ROWS) {
          throw new BenchFailure("data set of " + mb + " MB has fewer than " + SCAN_ROWS + " rows");
        }
        ctx.out.printf("%nreads: %s, %,d rows of %d bytes, JE cache %d MB%n", data, rows, s.valueBytes(), s.readCacheMb());
        Path dir = ctx.root.resolve("read-" + mb + "mb");
        Region region = engine.create(dir, Keys.descriptor());
        try {
          long loadNanos = Loader.load(region, rows, s.loadThreads(), s.loadDurability(), s.valueBytes(), ctx.out);
          ctx.out.printf("  loaded in %.1f s (%,.0f rows/s, %d threads, %s)%n", loadNanos / 1e9, rows * 1e9 / loadNanos,
              s.loadThreads(), s.loadDurability());
          if (gets) {
            for (int threads : s.threads()) {
              Rate rate = RateRunner.measure(threads, s.warmupSeconds(), s.seconds(), w -> () -> get(region, rows, s.valueBytes()));
              ctx.printRate("get", rate);
              results.add(new RateResult("get", data, s.readCacheMb(), rate));
            }
          }
          if (scans) {
            for (int threads : s.threads()) {
              Rate rate = RateRunner.measure(threads, s.warmupSeconds(), s.seconds(), w -> () -> scan(region, rows));
              ctx.printRate("scan " + SCAN_ROWS + " rows", rate);
              results.add(new RateResult("scan " + SCAN_ROWS + " rows", data, s.readCacheMb(), rate));
            }
          }
        } finally {
          region.close();
        }
        ctx.delete(dir);
      }
    } finally {
      ctx.closeEngine();
    }
    return results;
  }

  /** "0.5x cache", "4x cache". */
  static String cacheRelation(long dataMb, long cacheMb) {
    double ratio = (double) dataMb / cacheMb;
    return ratio == Math.rint(ratio) ? String.format("%.0fx cache", ratio) : String.format("%.1fx cache", ratio);
  }

  private static void get(Region region, long rows, int valueBytes) {
    byte[] row = Keys.row(ThreadLocalRandom.current().nextLong(rows));
    List<Cell> cells = region.get(row, ReadOptions.DEFAULT);
    if (cells.size() != 1 || cells.get(0).value().length != valueBytes) {
      throw new BenchFailure("get of row " + Bytes.toStringBinary(row) + " returned " + cells);
    }
  }

  private static void scan(Region region, long rows) {
    byte[] start = Keys.row(ThreadLocalRandom.current().nextLong(rows - SCAN_ROWS + 1));
    try (RegionScanner scanner = region.scan(ScanSpec.range(start, null).withLimit(SCAN_ROWS))) {
      List<RowResult> results = scanner.next(SCAN_ROWS, Long.MAX_VALUE);
      if (results.size() != SCAN_ROWS) {
        throw new BenchFailure("scan from row " + Bytes.toStringBinary(start) + " returned " + results.size() + " rows");
      }
    }
  }
}
