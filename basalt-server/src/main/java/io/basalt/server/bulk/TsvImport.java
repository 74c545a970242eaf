package io.basalt.server.bulk;

import io.basalt.storage.mutation.RowMutation;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;

/**
 * {@code basalt import}: loads delimited text into a table with HBase ImportTsv's conventions
 * ({@link ImportOptions}, {@link TsvParser}), straight into the regions: lines are parsed, partitioned by region,
 * sorted, and sent in large batches through one bulk call per batch ({@link RegionBatches}, {@link BulkLoadCall})
 * that the region's primary writes in big JE transactions, durable when acknowledged. At the end one flush makes
 * every region's log durable on disk. A crash or failure leaves every acknowledged batch stored; running the same
 * import again with the same {@code importtsv.timestamp} (printed at the start) writes the same cells again, so it
 * finishes the job without duplicates.
 */
public final class TsvImport {
  /**
   * How much to send per call, how much may be buffered or in flight in all, how much input to sort in memory
   * before spilling a sorted run to a temporary file under {@code tmpDir}.
   */
  public record Tuning(long batchBytes, long maxBufferedBytes, long sortBytes, Path tmpDir, int progressSeconds) {
    public static final Tuning DEFAULT = new Tuning(4L << 20, 32L << 20, 64L << 20,
        Path.of(System.getProperty("java.io.tmpdir")), 5);
  }

  /** What an import did. {@code loaded*}: acknowledged by the regions. */
  public record Summary(long lines, long badLines, long rowsLoaded, long cellsLoaded, long inputBytes,
      long bytesLoaded, double seconds, long timestamp) {
    public double rowsPerSecond() {
      return rowsLoaded / Math.max(1e-9, seconds);
    }

    public double megabytesPerSecond() {
      return inputBytes / 1e6 / Math.max(1e-9, seconds);
    }
  }

  private final AsyncConnection connection;
  private final ImportOptions options;
  private final Tuning tuning;
  private final PrintStream out;
  private final PrintStream err;
  private volatile ImportProgress progress = new ImportProgress();

  public TsvImport(AsyncConnection connection, ImportOptions options, Tuning tuning, PrintStream out, PrintStream err) {
    this.connection = connection;
    this.options = options;
    this.tuning = tuning;
    this.out = out;
    this.err = err;
  }

  /**
   * Imports {@code inputs} (files, directories of files as ImportTsv reads them, {@code -} for standard input; a
   * {@code .gz} name is decompressed) into {@code tableName}. Throws TableNotFoundException and
   * NoSuchColumnFamilyException as ImportTsv does, IOException when a batch cannot be loaded or a bad line is met
   * with {@code importtsv.skip.bad.lines=false}.
   */
  public Summary run(TableName tableName, List<String> inputs) throws IOException {
    List<Path> files = inputFiles(inputs);
    AsyncAdmin admin = connection.getAdmin();
    if (!get(admin.tableExists(tableName))) {
      throw new TableNotFoundException(String.format("Table '%s' does not exist.", tableName));
    }
    TableDescriptor descriptor = get(admin.getDescriptor(tableName));
    List<String> unmatched = new ArrayList<>();
    for (String f : options.familyNames()) {
      if (!descriptor.hasColumnFamily(f.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
        unmatched.add(f);
      }
    }
    if (!unmatched.isEmpty()) {
      throw new NoSuchColumnFamilyException(String.format("Column families: %s do not exist.", unmatched));
    }
    byte[][] startKeys = get(connection.getRegionLocator(tableName).getAllRegionLocations()).stream()
        .filter(l -> RegionReplicaUtil.isDefaultReplica(l.getRegion()))
        .map(HRegionLocation::getRegion).map(r -> r.getStartKey()).sorted(io.basalt.storage.cell.Bytes::compare)
        .toArray(byte[][]::new);
    if (startKeys.length == 0) {
      startKeys = new byte[][] {new byte[0]};
    }
    out.printf("importing %s into %s (%d regions) with timestamp %d%s; rerun with -D%s=%d to resume without "
        + "duplicates%n", inputs, tableName, startKeys.length, options.timestamp(), options.dryRun() ? " (dry run)" : "",
        ImportOptions.TIMESTAMP, options.timestamp());
    ImportProgress progress = new ImportProgress();
    this.progress = progress;
    ExecutorService encoders = Executors.newFixedThreadPool(2, daemon("basalt-import-encoder"));
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(daemon("basalt-import-progress"));
    ticker.scheduleAtFixedRate(() -> out.println(progress.line()), tuning.progressSeconds(), tuning.progressSeconds(),
        TimeUnit.SECONDS);
    try {
      RegionBatches batches = new RegionBatches(connection.getTable(tableName), options.families(), startKeys,
          tuning.batchBytes(), tuning.maxBufferedBytes(), progress, encoders);
      TsvParser parser = new TsvParser(options);
      try (SortedRuns sorted = new SortedRuns(options.families(), tuning.sortBytes(), tuning.tmpDir())) {
        for (Path file : files) {
          read(file, parser, sorted, progress);
        }
        if (!options.dryRun()) {
          out.printf("read %,d lines in %.1f s (%s of sorted runs spilled to %s); loading in row order%n",
              progress.lines(), progress.elapsedSeconds(), ImportProgress.mb(sorted.spilledBytes()), tuning.tmpDir());
          for (java.util.Iterator<RowMutation> rows = sorted.sorted(); rows.hasNext(); ) {
            batches.add(rows.next());
          }
        }
      }
      batches.finish();
      if (!options.dryRun()) {
        get(admin.flush(tableName)); // one fsync of every region's log for the whole import
      }
    } finally {
      ticker.shutdownNow();
      encoders.shutdownNow();
    }
    out.println(progress.line());
    Summary s = new Summary(progress.lines(), progress.badLines(), progress.rowsLoaded(), progress.cellsLoaded(),
        progress.inputBytes(), progress.bytesLoaded(), progress.elapsedSeconds(), options.timestamp());
    out.printf("imported %,d rows (%,d cells) from %,d lines, %s, in %.1f s: %,.0f rows/s, %.1f MB/s of input; "
        + "bad lines %,d%n", s.rowsLoaded(), s.cellsLoaded(), s.lines(), ImportProgress.mb(s.inputBytes()), s.seconds(),
        s.rowsPerSecond(), s.megabytesPerSecond(), s.badLines());
    return s;
  }

  /** The counters of the running (or last) import, for watchers. */
  public ImportProgress progress() {
    return progress;
  }

  private void read(Path file, TsvParser parser, SortedRuns sorted, ImportProgress progress) throws IOException {
    String name = file.toString();
    try (LineReader lines = new LineReader(open(file))) {
      long consumed = 0;
      while (lines.next()) {
        progress.lines.increment();
        long position = lines.position();
        progress.inputBytes.add(position - consumed);
        consumed = position;
        RowMutation row;
        try {
          row = parser.parse(lines.line(), lines.length());
        } catch (TsvParser.BadLineException bad) {
          if (options.logBadLines()) {
            err.println(new String(lines.line(), 0, lines.length(), java.nio.charset.StandardCharsets.UTF_8));
          }
          err.println("Bad line at offset: " + lines.offset() + " of " + name + ":\n" + bad.getMessage());
          if (!options.skipBadLines()) {
            // Nothing is loaded yet (rows go in row order once the whole input is read): the table is untouched.
            throw new IOException("bad line at offset " + lines.offset() + " of " + name + ": " + bad.getMessage()
                + " (" + ImportOptions.SKIP_BAD_LINES + "=false)");
          }
          progress.badLines.increment();
          continue;
        }
        if (!options.dryRun()) {
          sorted.add(row);
        }
      }
    }
  }

  private static InputStream open(Path file) throws IOException {
    if (file.toString().equals("-")) {
      return System.in;
    }
    InputStream in = Files.newInputStream(file);
    return file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(in, 1 << 16) : in;
  }

  /** As Hadoop's FileInputFormat: a directory stands for its files, except hidden ones ({@code _x}, {@code .x}). */
  static List<Path> inputFiles(List<String> inputs) throws IOException {
    List<Path> files = new ArrayList<>();
    for (String input : inputs) {
      if (input.equals("-")) {
        files.add(Path.of("-"));
        continue;
      }
      Path p = Path.of(input);
      if (!Files.exists(p)) {
        throw new java.io.FileNotFoundException("Input path does not exist: " + p.toAbsolutePath());
      }
      if (!Files.isDirectory(p)) {
        files.add(p);
        continue;
      }
      try (Stream<Path> children = Files.list(p)) {
        Path[] sorted = children.filter(c -> !c.getFileName().toString().startsWith("_")
            && !c.getFileName().toString().startsWith(".")).sorted().toArray(Path[]::new);
        for (Path c : sorted) {
          if (Files.isDirectory(c)) {
            throw new IOException("Not a file: " + c.toAbsolutePath() + " (input directories are not read recursively)");
          }
        }
        files.addAll(Arrays.asList(sorted));
      }
    }
    return files;
  }

  private static <T> T get(java.util.concurrent.CompletableFuture<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("import interrupted");
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw c instanceof IOException io ? io : new IOException(c);
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
