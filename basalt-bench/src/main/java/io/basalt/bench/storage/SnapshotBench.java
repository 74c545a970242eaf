package io.basalt.bench.storage;

import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.region.Region;
import io.basalt.storage.segment.LogSegmentSet;
import io.basalt.storage.segment.SegmentLinker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A snapshot of a live region as Basalt takes one (its segment set, hard-linked into a snapshot directory) while a
 * writer keeps writing: how long it takes, how long the writer waited at worst, and the extra disk space the
 * snapshot costs (its files no other directory shares); then a clone of the snapshot opened as a region.
 */
final class SnapshotBench {
  private SnapshotBench() {}

  /** One row of the snapshot table. */
  record Result(long dataMb, long rows, long logBytes, int files, long snapshotNanos, long extraBytes,
      long writerMaxNanos, long writesDuring, long cloneNanos, long cloneCopied, long openNanos, long extraAfterRewrite) {}

  static Result run(BenchContext ctx, long mb) throws InterruptedException {
    Settings s = ctx.settings;
    long rows = s.rowsFor(mb);
    ctx.out.printf("%nsnapshot: %d MB region, %,d rows of %d bytes, JE cache %d MB%n", mb, rows, s.valueBytes(),
        s.writeCacheMb());
    Path source = ctx.root.resolve("snap-" + mb + "mb");
    Path snapshot = ctx.root.resolve("snap-" + mb + "mb.snapshot");
    Path clone = ctx.root.resolve("snap-" + mb + "mb.clone");
    JeStorageEngine engine = ctx.openEngine(s.writeCacheMb());
    try {
      Region region = engine.create(source, Keys.descriptor());
      long snapshotNanos;
      SegmentLinker.Linked linked;
      Writer writer = new Writer(region, rows, s.valueBytes());
      try {
        long loadNanos = Loader.load(region, rows, s.loadThreads(), s.loadDurability(), s.valueBytes(), ctx.out);
        ctx.out.printf("  loaded in %.1f s%n", loadNanos / 1e9);
        writer.start();
        Thread.sleep(500); // the writer at its pace before the snapshot
        long writesBefore = writer.writes.get();
        writer.maxNanos.set(0);
        long t = System.nanoTime();
        try (LogSegmentSet set = region.checkpointedSegments()) {
          linked = SegmentLinker.link(LocalStorageFiles.INSTANCE, set, snapshot, false);
        }
        snapshotNanos = System.nanoTime() - t;
        Thread.sleep(200);
        writer.stop();
        ctx.out.printf("  snapshot of %d segments (%.1f MB) in %.2f ms; the writer's longest put meanwhile %.2f ms "
            + "(%,d SYNC_WAL puts during the 0.2 s after)%n", linked.files(), linked.bytesLinked() / (double) Settings.MB,
            snapshotNanos / 1e6, writer.maxNanos.get() / 1e6, writer.writes.get() - writesBefore);
      } finally {
        writer.stop();
        region.close();
      }
      long extra = unsharedBytes(snapshot);
      long t = System.nanoTime();
      long copied = engine.cloneClosed(snapshot, clone);
      long cloneNanos = System.nanoTime() - t;
      t = System.nanoTime();
      Region copy = engine.open(clone);
      long openNanos = System.nanoTime() - t;
      long cells = 0;
      try (io.basalt.storage.read.RegionScanner scan = copy.scan(io.basalt.storage.read.ScanSpec.all())) {
        for (var batch = scan.next(10_000, Long.MAX_VALUE); !batch.isEmpty(); batch = scan.next(10_000, Long.MAX_VALUE)) {
          cells += batch.size();
        }
      } finally {
        copy.close();
      }
      if (cells != rows) {
        throw new BenchFailure("the clone of the snapshot holds " + cells + " rows, the region had " + rows);
      }
      ctx.out.printf("  extra disk right after: %,d bytes; clone of the snapshot in %.1f ms (%.1f MB copied), "
          + "opened in %.1f ms, %,d rows read back%n", extra, cloneNanos / 1e6, copied / (double) Settings.MB, openNanos / 1e6,
          cells);
      // The region goes on: every row overwritten once, then closed (JE's cleaner and checkpoint delete what they
      // can). What the snapshot alone holds now is the cost of keeping it.
      Region again = engine.open(source);
      try {
        Loader.load(again, rows, s.loadThreads(), s.loadDurability(), s.valueBytes(), ctx.out);
        again.maintain();
      } finally {
        again.close();
      }
      long extraAfter = unsharedBytes(snapshot);
      ctx.out.printf("  after the region rewrote every row and closed: the snapshot alone holds %.1f MB; the region's "
          + "log is %.1f MB%n", extraAfter / (double) Settings.MB, segmentBytes(source) / (double) Settings.MB);
      return new Result(mb, rows, linked.bytesLinked() + linked.bytesCopied(), linked.files(), snapshotNanos, extra,
          writer.maxNanos.get(), writer.writes.get(), cloneNanos, copied, openNanos, extraAfter);
    } finally {
      ctx.closeEngine();
      ctx.delete(source);
      ctx.delete(snapshot);
      ctx.delete(clone);
    }
  }

  /** Bytes of the files in {@code dir} that no other directory links to: what the snapshot alone costs on disk. */
  static long unsharedBytes(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> {
        try {
          return ((Integer) Files.getAttribute(p, "unix:nlink")) == 1;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long segmentBytes(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".jdb")).mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Overwrites random rows with SYNC_WAL puts, noting the longest. */
  private static final class Writer {
    final AtomicLong writes = new AtomicLong();
    final AtomicLong maxNanos = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean();
    private final Region region;
    private final long rows;
    private final int valueBytes;
    private Thread thread;

    Writer(Region region, long rows, int valueBytes) {
      this.region = region;
      this.rows = rows;
      this.valueBytes = valueBytes;
    }

    void start() {
      running.set(true);
      thread = new Thread(() -> {
        byte[] value = Keys.value(valueBytes);
        while (running.get()) {
          long t = System.nanoTime();
          region.mutate(Keys.put(ThreadLocalRandom.current().nextLong(rows), value), Durability.SYNC_WAL);
          maxNanos.accumulateAndGet(System.nanoTime() - t, Math::max);
          writes.incrementAndGet();
        }
      }, "snapshot-bench-writer");
      thread.start();
    }

    void stop() throws InterruptedException {
      running.set(false);
      if (thread != null) {
        thread.join();
      }
    }
  }
}
