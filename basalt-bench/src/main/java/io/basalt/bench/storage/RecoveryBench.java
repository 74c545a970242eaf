package io.basalt.bench.storage;

import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.region.Region;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What a crash costs at the next open: a child JVM ({@link RecoveryWriter}) writes random rows into a fresh
 * region until its log holds the given amount, all of it after the region's last checkpoint while that amount is
 * below the engine's checkpoint interval ({@code RegionEnvironmentConfig.CHECKPOINT_LOG_BYTES}), and is killed with SIGKILL;
 * the region is then opened here, which replays that log. Opening the same region again after a clean close
 * is the baseline.
 */
final class RecoveryBench {
  /** How long the child may take to write the log, at a pessimistic 1 MB/s. */
  private static final long SECONDS_PER_MB = 1;

  record Result(long logMb, long logBytes, long puts, long rows, long crashedOpenNanos, long cleanOpenNanos) {}

  private RecoveryBench() {}

  static Result run(BenchContext ctx, long logMb) throws IOException, InterruptedException {
    Settings s = ctx.settings;
    // As many distinct rows as the values of the log: a third of the puts replace a row written before.
    long rows = Math.max(1, s.rowsFor(logMb));
    Path dir = ctx.root.resolve("recovery-" + logMb + "mb");
    ctx.out.printf("%nrecovery: %d MB of log of random puts over %,d rows, killed, then opened (JE cache %d MB)%n",
        logMb, rows, s.writeCacheMb());
    try {
      String[] written = writeAndKill(ctx, dir, logMb, rows);
      long logBytes = Long.parseLong(written[1]);
      long puts = Long.parseLong(written[2]);
      JeStorageEngine engine = ctx.openEngine(s.writeCacheMb());
      long crashed;
      long clean;
      try {
        long t = System.nanoTime();
        Region region = engine.open(dir);
        crashed = System.nanoTime() - t;
        region.close();
        t = System.nanoTime();
        region = engine.open(dir);
        clean = System.nanoTime() - t;
        region.close();
      } finally {
        ctx.closeEngine();
      }
      ctx.out.printf("  %,d puts, %.1f MB of log: opened after the crash in %.0f ms, after a clean close in %.0f ms%n",
          puts, logBytes / (double) Settings.MB, crashed / 1e6, clean / 1e6);
      return new Result(logMb, logBytes, puts, rows, crashed, clean);
    } finally {
      ctx.delete(dir);
    }
  }

  /** Runs the writer until it reports {@code WRITTEN <bytes> <puts>}, then kills it; returns that line's words. */
  private static String[] writeAndKill(BenchContext ctx, Path dir, long logMb, long rows)
      throws IOException, InterruptedException {
    Settings s = ctx.settings;
    String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    Process child = new ProcessBuilder(java, "-XX:+UseZGC", "-Xmx" + (s.writeCacheMb() + 512) + "m",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
        RecoveryWriter.class.getName(), dir.toString(), Long.toString(s.writeCacheMb()), Long.toString(s.logFileMb()),
        Integer.toString(s.valueBytes()), Long.toString(logMb), Long.toString(rows))
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> firstWrittenLine(child));
      String written;
      try {
        written = line.get(60 + logMb * SECONDS_PER_MB, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        throw new BenchFailure("the recovery writer did not finish its " + logMb + " MB of log", e);
      }
      if (written == null) {
        throw new BenchFailure("the recovery writer exited with " + child.waitFor() + " before writing its log");
      }
      return written.split(" ");
    } finally {
      child.destroyForcibly();
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        throw new BenchFailure("the recovery writer (pid " + child.pid() + ") did not die after SIGKILL");
      }
    }
  }

  private static String firstWrittenLine(Process child) {
    try {
      BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      for (String l = in.readLine(); l != null; l = in.readLine()) {
        if (l.startsWith("WRITTEN ")) {
          return l;
        }
      }
      return null;
    } catch (IOException e) {
      return null;
    }
  }
}
