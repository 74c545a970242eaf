package io.basalt.bench.storage;

import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.region.Region;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What an overwrite costs once the rows are no longer cached: a region many times the JE cache is loaded in key
 * order, then one thread overwrites random rows in batches (a client's buffered puts) while the page cache holds
 * the log, and again after the page cache is dropped (root only: {@code /proc/sys/vm/drop_caches}). A put of a row
 * that exists reads the row's record first, so the cold figure shows what that read costs from the disk.
 */
final class OverwriteBench {
  static final int BATCH_ROWS = 500;

  record Result(String phase, long puts, long nanos, long diskReadBytes) {
    double putsPerSecond() {
      return puts / (nanos / 1e9);
    }
  }

  private OverwriteBench() {}

  static List<Result> run(BenchContext ctx, long dataMb, long cacheMb) throws IOException, InterruptedException {
    Settings s = ctx.settings;
    long rows = Math.max(BATCH_ROWS, s.rowsFor(dataMb));
    Path dir = ctx.root.resolve("overwrite");
    ctx.out.printf("%noverwrite: %,d rows (%d MB) loaded in key order, then random overwrites in batches of %d from one "
        + "thread (JE cache %d MB)%n", rows, dataMb, BATCH_ROWS, cacheMb);
    List<Result> results = new ArrayList<>();
    JeStorageEngine engine = ctx.openEngine(cacheMb);
    try {
      Region region = engine.create(dir, Keys.descriptor());
      Loader.load(region, rows, s.loadThreads(), s.loadDurability(), s.valueBytes(), ctx.out);
      region.flush();
      results.add(phase(ctx, region, rows, "page cache warm"));
      region.flush();
      if (dropPageCache()) {
        results.add(phase(ctx, region, rows, "page cache dropped"));
      } else {
        ctx.out.println("  the page cache was not dropped (needs root): no cold figure");
      }
      region.close();
    } finally {
      ctx.closeEngine();
      ctx.delete(dir);
    }
    return results;
  }

  private static Result phase(BenchContext ctx, Region region, long rows, String name) {
    Settings s = ctx.settings;
    byte[] value = Keys.value(s.valueBytes());
    long readBefore = ProcessStats.diskReadBytes();
    long start = System.nanoTime();
    long end = start + (long) (s.seconds() * 1e9);
    long puts = 0;
    while (System.nanoTime() < end) {
      List<RowMutation> batch = new ArrayList<>(BATCH_ROWS);
      for (int i = 0; i < BATCH_ROWS; i++) {
        batch.add(Keys.put(ThreadLocalRandom.current().nextLong(rows), value));
      }
      if (!region.mutateBatch(batch, s.durability()).allApplied()) {
        throw new BenchFailure("an overwrite batch failed");
      }
      puts += BATCH_ROWS;
    }
    long nanos = System.nanoTime() - start;
    long readAfter = ProcessStats.diskReadBytes();
    Result r = new Result(name, puts, nanos, readBefore < 0 ? -1 : readAfter - readBefore);
    ctx.out.printf("  %s: %,.0f puts/s, %s disk bytes read per put%n", name, r.putsPerSecond(),
        r.diskReadBytes() < 0 ? "?" : String.format("%,d", r.diskReadBytes() / Math.max(1, puts)));
    return r;
  }

  /** Drops the kernel's clean page cache, so the log is read from the disk again; false where not allowed. */
  private static boolean dropPageCache() {
    try {
      Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "1");
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
