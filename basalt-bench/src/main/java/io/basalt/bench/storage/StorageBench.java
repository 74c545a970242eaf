package io.basalt.bench.storage;

import io.basalt.bench.report.MarkdownTable;
import io.basalt.storage.mutation.Durability;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The storage benchmark: put, get and scan rates and the split primitives' times of the JE region store,
 * printed as it goes and as Markdown tables at the end. A program, not a test: run it with
 * {@code bin/storage-bench} (add {@code --help} for the options).
 */
@Command(name = "storage-bench", sortOptions = false, usageHelpWidth = 110,
    description = {
        "Measures the Basalt storage layer: put, get and 100-row scan rates (ops/s and process CPU per op) with",
        "1000-byte values, midpoint, clone and restricted-open times of regions being split, and the time and",
        "extra disk space of a snapshot of a live region (and of a clone of it), and the time to open a region",
        "after a crash left it with some amount of log since its last checkpoint, and the rate of random",
        "overwrites of a region many times the cache with the page cache warm and dropped (root only).",
        "Sizes are in MB of value data (MB = 2^20 bytes). All data goes to a fresh directory under --dir,",
        "deleted at the end."})
public final class StorageBench implements Callable<Integer> {
  /** The workloads, in the order they run. */
  enum Workload { put, get, scan, split, snapshot, recovery, overwrite }

  @Option(names = "--quick", description = "Smoke run: small data sets (cache 16 MB, reads 8/64 MB, splits 20/60 MB) "
      + "and 1 s per figure after 0.5 s of warm-up; explicit options still win.")
  boolean quick;

  @Option(names = "--seconds", paramLabel = "S", description = "Measured time of each figure (default 5; --quick 1).")
  Double seconds;

  @Option(names = "--warmup", paramLabel = "S", description = "Warm-up before each figure (default 2; --quick 0.5).")
  Double warmup;

  @Option(names = "--only", split = ",", paramLabel = "WORKLOAD",
      description = "Workloads to run, of: ${COMPLETION-CANDIDATES} (default all).")
  List<Workload> only;

  @Option(names = "--threads", split = ",", paramLabel = "N", defaultValue = "1,2",
      description = "Thread counts of the rate figures (default ${DEFAULT-VALUE}).")
  List<Integer> threads;

  @Option(names = "--value-bytes", paramLabel = "B", defaultValue = "1000", description = "Value size (default ${DEFAULT-VALUE}).")
  int valueBytes;

  @Option(names = "--durability", paramLabel = "D", defaultValue = "SYNC_WAL",
      description = "Durability of the measured puts, of: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
  Durability durability;

  @Option(names = "--load-durability", paramLabel = "D", defaultValue = "SKIP_WAL",
      description = "Durability used to load the read and split data sets (not measured; default ${DEFAULT-VALUE}).")
  Durability loadDurability;

  @Option(names = "--load-threads", paramLabel = "N", defaultValue = "2",
      description = "Threads loading the read and split data sets (default ${DEFAULT-VALUE}).")
  int loadThreads;

  @Option(names = "--cache-mb", paramLabel = "MB", description = "JE cache of the get and scan figures (default 64; --quick 16).")
  Long cacheMb;

  @Option(names = "--fit-mb", paramLabel = "MB", description = "Data of the in-cache get/scan figures (default half the cache).")
  Long fitMb;

  @Option(names = "--big-mb", paramLabel = "MB", description = "Data of the out-of-cache get/scan figures (default 4x the cache).")
  Long bigMb;

  @Option(names = "--write-cache-mb", paramLabel = "MB", defaultValue = "256",
      description = "JE cache of the put and split figures (default ${DEFAULT-VALUE}, the engine's default).")
  long writeCacheMb;

  @Option(names = "--put-batch", paramLabel = "N", defaultValue = "100",
      description = "Puts per batch of the batched put figure, as a client's batch or buffered writes send them "
          + "(default ${DEFAULT-VALUE}; 0 skips it).")
  int putBatch;

  @Option(names = "--split-mb", split = ",", paramLabel = "MB",
      description = "Region sizes of the split figures (default 100,1024; --quick 20,60).")
  List<Long> splitMb;

  @Option(names = "--snapshot-mb", split = ",", paramLabel = "MB",
      description = "Region sizes of the snapshot figures (default 100; --quick 20; --large-snapshots adds 1024,5120).")
  List<Long> snapshotMb;

  @Option(names = "--recovery-mb", split = ",", paramLabel = "MB",
      description = "Log written into a fresh region before the crash of the recovery figures (default 20,190: "
          + "what JE's default checkpoint interval and ours, 200 MB, leave at most to replay; --quick 10,40). "
          + "Above 200 MB a checkpoint falls in between and the replay stays under 200 MB.")
  List<Long> recoveryMb;

  @Option(names = "--overwrite-mb", paramLabel = "MB",
      description = "Data of the overwrite figures, loaded into a region with the read figures' JE cache (default "
          + "1536; --quick 64).")
  Long overwriteMb;

  @Option(names = "--large-snapshots", description = "Also snapshot 1 GB and 5 GB regions (about 8 GB of disk, minutes).")
  boolean largeSnapshots;

  @Option(names = "--log-file-mb", paramLabel = "MB", defaultValue = "10",
      description = "Log segment size (default ${DEFAULT-VALUE}, the engine's default).")
  long logFileMb;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--dir", paramLabel = "DIR", description = "Where to make the run's data directory (default: java.io.tmpdir).")
  Path dir;

  @Option(names = "--keep", description = "Keep the data directory instead of deleting it at the end.")
  boolean keep;

  private final PrintStream out = System.out;

  public static void main(String[] args) {
    System.exit(new CommandLine(new StorageBench()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
  }

  Settings settings() {
    long cache = cacheMb != null ? cacheMb : quick ? 16 : 64;
    Settings s = new Settings(
        warmup != null ? warmup : quick ? 0.5 : 2,
        seconds != null ? seconds : quick ? 1 : 5,
        valueBytes,
        List.copyOf(threads),
        durability,
        loadDurability,
        loadThreads,
        cache,
        fitMb != null ? fitMb : Math.max(1, cache / 2),
        bigMb != null ? bigMb : cache * 4,
        writeCacheMb,
        putBatch,
        splitMb != null ? List.copyOf(splitMb) : quick ? List.of(20L, 60L) : List.of(100L, 1024L),
        logFileMb);
    if (s.warmupSeconds() < 0 || s.seconds() <= 0) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--seconds must be positive, --warmup not negative");
    }
    if (s.putBatch() < 0) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--put-batch must not be negative");
    }
    if (s.valueBytes() < 1 || s.loadThreads() < 1 || s.threads().isEmpty() || s.threads().stream().anyMatch(t -> t < 1)) {
      throw new CommandLine.ParameterException(new CommandLine(this), "value size and thread counts must be positive");
    }
    if (s.readCacheMb() < 1 || s.writeCacheMb() < 1 || s.logFileMb() < 1 || s.fitMb() < 1 || s.bigMb() < 1
        || s.splitMb().stream().anyMatch(mb -> mb < 1) || recoverySizes().stream().anyMatch(mb -> mb < 1)) {
      throw new CommandLine.ParameterException(new CommandLine(this), "sizes must be at least 1 MB");
    }
    return s;
  }

  @Override
  public Integer call() throws Exception {
    Keys.checkRowFormat();
    Settings s = settings();
    Set<Workload> selected = only == null || only.isEmpty() ? EnumSet.allOf(Workload.class) : EnumSet.copyOf(only);
    Path parent = dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(parent);
    Path root = Files.createTempDirectory(parent.toAbsolutePath(), "storage-bench-");
    BenchContext ctx = new BenchContext(s, root, out);
    Thread cleanup = new Thread(() -> {
      // Interrupted run (Ctrl-C): close what is open so JE lets go of the files, then remove them.
      try {
        ctx.closeEngine();
      } catch (RuntimeException e) {
        // the workers may still be using it; the files go anyway
      }
      if (!keep) {
        ctx.delete(root);
      }
    }, "storage-bench-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);

    out.println("# Basalt storage benchmark, " + ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME));
    out.println();
    for (String fact : MachineFacts.describe(root)) {
      out.println("- " + fact);
    }
    out.println();
    printSettings(s, selected);
    warnIfShortOfDisk(s, selected, root);

    List<RateResult> rates = new ArrayList<>();
    List<SplitResult> splits = new ArrayList<>();
    List<SnapshotBench.Result> snapshots = new ArrayList<>();
    List<RecoveryBench.Result> recoveries = new ArrayList<>();
    List<OverwriteBench.Result> overwrites = new ArrayList<>();
    long start = System.nanoTime();
    try {
      if (selected.contains(Workload.put)) {
        rates.addAll(PutBench.run(ctx));
      }
      if (selected.contains(Workload.get) || selected.contains(Workload.scan)) {
        rates.addAll(ReadBench.run(ctx, selected.contains(Workload.get), selected.contains(Workload.scan)));
      }
      if (selected.contains(Workload.split)) {
        for (long mb : s.splitMb()) {
          splits.add(SplitBench.run(ctx, mb));
        }
      }
      if (selected.contains(Workload.snapshot)) {
        for (long mb : snapshotSizes()) {
          snapshots.add(SnapshotBench.run(ctx, mb));
        }
      }
      if (selected.contains(Workload.recovery)) {
        for (long mb : recoverySizes()) {
          recoveries.add(RecoveryBench.run(ctx, mb));
        }
      }
      if (selected.contains(Workload.overwrite)) {
        overwrites.addAll(OverwriteBench.run(ctx, overwriteMb != null ? overwriteMb : quick ? 64 : 1536,
            s.readCacheMb()));
      }
    } finally {
      ctx.closeEngine();
      if (keep) {
        out.println("\ndata kept in " + root);
      } else {
        ctx.delete(root);
      }
      Runtime.getRuntime().removeShutdownHook(cleanup);
    }
    out.printf("%nfinished in %.0f s%n%n", (System.nanoTime() - start) / 1e9);
    printTables(s, rates, splits);
    printSnapshots(s, snapshots);
    printRecoveries(s, recoveries);
    printOverwrites(s, overwrites);
    return 0;
  }

  private List<Long> snapshotSizes() {
    List<Long> sizes = new ArrayList<>(snapshotMb != null ? snapshotMb : List.of(quick ? 20L : 100L));
    if (largeSnapshots) {
      sizes.addAll(List.of(1024L, 5120L));
    }
    return sizes;
  }

  private List<Long> recoverySizes() {
    return recoveryMb != null ? List.copyOf(recoveryMb) : quick ? List.of(10L, 40L) : List.of(20L, 190L);
  }

  private void printRecoveries(Settings s, List<RecoveryBench.Result> recoveries) {
    if (recoveries.isEmpty()) {
      return;
    }
    out.println("## Recovery");
    out.println();
    MarkdownTable t = new MarkdownTable(">log since checkpoint", ">puts", ">rows", ">open after SIGKILL", ">open after close");
    for (RecoveryBench.Result r : recoveries) {
      t.row(mb(r.logBytes()), String.format("%,d", r.puts()), String.format("%,d", r.rows()), ms(r.crashedOpenNanos()),
          ms(r.cleanOpenNanos()));
    }
    out.print(t.render());
    out.println();
    out.printf("A child JVM writes random rows (ASYNC_WAL, then one FSYNC_WAL put) into a fresh region until its log holds "
        + "the amount shown, all after the region's last checkpoint, and is killed with SIGKILL; opening the region "
        + "replays that log (JE's recovery, ending in a checkpoint). Then the region is closed and opened again. "
        + "JE cache %d MB, %d MB log segments.%n", s.writeCacheMb(), s.logFileMb());
  }

  private void printOverwrites(Settings s, List<OverwriteBench.Result> overwrites) {
    if (overwrites.isEmpty()) {
      return;
    }
    out.println("## Overwrites");
    out.println();
    MarkdownTable t = new MarkdownTable("phase", ">puts/s", ">disk bytes read per put");
    for (OverwriteBench.Result r : overwrites) {
      t.row(r.phase(), String.format("%,.0f", r.putsPerSecond()),
          r.diskReadBytes() < 0 ? "?" : String.format("%,d", r.diskReadBytes() / Math.max(1, r.puts())));
    }
    out.print(t.render());
    out.println();
    out.printf("One thread overwrites random rows of a region loaded in key order, %d rows a batch, %s, JE cache %d MB, "
        + "%.0f s a phase; then the page cache is dropped and it goes on.%n", OverwriteBench.BATCH_ROWS, s.durability(),
        s.readCacheMb(), s.seconds());
  }

  private void printSnapshots(Settings s, List<SnapshotBench.Result> snapshots) {
    if (snapshots.isEmpty()) {
      return;
    }
    out.println("## Snapshot");
    out.println();
    MarkdownTable t = new MarkdownTable("region", ">log on disk", ">segments", ">snapshot", ">extra disk",
        ">longest put meanwhile", ">clone", ">clone copied", ">open clone", ">held after a rewrite");
    for (SnapshotBench.Result r : snapshots) {
      t.row(r.dataMb() + " MB", mb(r.logBytes()), Integer.toString(r.files()), ms(r.snapshotNanos()),
          String.format("%,d B", r.extraBytes()), ms(r.writerMaxNanos()), ms(r.cloneNanos()), mb(r.cloneCopied()),
          ms(r.openNanos()), mb(r.extraAfterRewrite()));
    }
    out.print(t.render());
    out.println();
    out.printf("A live region's log segment set (a forced checkpoint, then JE flips to a new segment) hard-linked into a snapshot directory while "
        + "a writer overwrites random rows with SYNC_WAL puts. extra disk: bytes of the snapshot's files that no other "
        + "directory shares, right after (it grows as the live region's cleaner deletes segments the snapshot still "
        + "holds, up to the region's size then). clone: engine.cloneClosed() of the snapshot (segments linked, the "
        + "tail copied); open: opening the clone as a region. held after a rewrite: what only the snapshot keeps once the "
        + "region has overwritten every row and closed (its cleaner deleted the segments it no longer needs). %d MB log "
        + "segments.%n", s.logFileMb());
  }

  private void printSettings(Settings s, Set<Workload> selected) {
    out.printf("settings: %s; %d-byte values, one family and qualifier, rows %%016d; threads %s;%n", selected,
        s.valueBytes(), s.threads());
    out.printf("  %.1f s warm-up + %.1f s measured per figure; puts %s; data sets loaded with %s by %d threads;%n",
        s.warmupSeconds(), s.seconds(), s.durability(), s.loadDurability(), s.loadThreads());
    out.printf("  reads: cache %d MB, data %d MB and %d MB; puts and splits: cache %d MB; splits of %s MB; log segments %d MB%n",
        s.readCacheMb(), s.fitMb(), s.bigMb(), s.writeCacheMb(), s.splitMb(), s.logFileMb());
  }

  private void warnIfShortOfDisk(Settings s, Set<Workload> selected, Path root) {
    long largest = 0;
    if (selected.contains(Workload.get) || selected.contains(Workload.scan)) {
      largest = Math.max(s.fitMb(), s.bigMb());
    }
    if (selected.contains(Workload.split)) {
      largest = Math.max(largest, Collections.max(s.splitMb()));
    }
    if (selected.contains(Workload.snapshot)) {
      largest = Math.max(largest, Collections.max(snapshotSizes()));
    }
    if (selected.contains(Workload.recovery)) {
      largest = Math.max(largest, Collections.max(recoverySizes()));
    }
    try {
      long freeMb = Files.getFileStore(root).getUsableSpace() >> 20;
      // log records carry keys and headers besides the values; the clones add two tail segments
      long needMb = largest * 3 / 2 + 2 * s.logFileMb() + 1024;
      if (freeMb < needMb) {
        out.printf("WARNING: %,d MB free under %s, the largest data set needs about %,d MB%n", freeMb, root, needMb);
      }
    } catch (java.io.IOException e) {
      // unknown; the run will tell
    }
  }

  private void printTables(Settings s, List<RateResult> rates, List<SplitResult> splits) {
    if (!rates.isEmpty()) {
      out.println("## Rates");
      out.println();
      MarkdownTable t = new MarkdownTable("workload", "data", ">threads", ">JE cache", ">ops/s", ">CPU us/op", ">read B/op");
      for (RateResult r : rates) {
        Rate rate = r.rate();
        t.row(r.workload(), r.data(), Integer.toString(rate.threads()), r.cacheMb() + " MB",
            String.format("%,.0f", rate.opsPerSecond()), String.format("%.1f", rate.cpuMicrosPerOp()),
            Double.isNaN(rate.readBytesPerOp()) ? "n/a" : String.format("%,.0f", rate.readBytesPerOp()));
      }
      out.print(t.render());
      out.println();
      out.printf("%d-byte values; %.1f s measured after %.1f s warm-up per figure. Scan ops are scans of %d rows. "
          + "CPU us/op: process CPU time (all threads, JE daemons and GC included) / ops. read B/op: bytes the "
          + "process read with read() calls / ops, i.e. JE cache misses (served from the OS page cache or disk).%n%n",
          s.valueBytes(), s.seconds(), s.warmupSeconds(), ReadBench.SCAN_ROWS);
    }
    if (!splits.isEmpty()) {
      out.println("## Split");
      out.println();
      MarkdownTable t = new MarkdownTable("region", ">rows", ">log on disk", ">load", ">midpoint 1st / median",
          ">close", ">clone A / B", ">copied A / B", ">openRestricted A / B");
      for (SplitResult r : splits) {
        t.row(r.dataMb() + " MB", String.format("%,d", r.rows()), mb(r.logBytes()), String.format("%.1f s", r.loadNanos() / 1e9),
            ms(r.midpointFirstNanos()) + " / " + ms(r.midpointMedianNanos()), ms(r.closeNanos()),
            ms(r.cloneNanos()[0]) + " / " + ms(r.cloneNanos()[1]), mb(r.copiedBytes()[0]) + " / " + mb(r.copiedBytes()[1]),
            ms(r.openNanos()[0]) + " / " + ms(r.openNanos()[1]));
      }
      out.print(t.render());
      out.println();
      out.printf("Regions loaded with %s by %d threads, JE cache %d MB, %d MB log segments. midpoint: region.midpointRow() "
          + "on the open region (first call, then median of 5). close: region.close() before cloning. clone: "
          + "engine.cloneClosed() per daughter (closed segments hard-linked, the tail copied). openRestricted: opening "
          + "each daughter on its half.%n", s.loadDurability(), s.loadThreads(), s.writeCacheMb(), s.logFileMb());
    }
  }

  private static String ms(long nanos) {
    double ms = nanos / 1e6;
    return ms < 10 ? String.format("%.2f ms", ms) : ms < 1000 ? String.format("%.1f ms", ms) : String.format("%,.0f ms", ms);
  }

  private static String mb(long bytes) {
    return String.format("%.1f MB", bytes / (double) Settings.MB);
  }
}
