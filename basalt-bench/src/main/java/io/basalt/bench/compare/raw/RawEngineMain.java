package io.basalt.bench.compare.raw;

import io.basalt.bench.compare.Comparison;
import io.basalt.bench.compare.Plan;
import io.basalt.bench.compare.WorkloadSet;
import io.basalt.bench.compare.workload.PeRows;
import io.basalt.bench.compare.workload.PeTable;
import io.basalt.bench.compare.workload.PeWorkload;
import io.basalt.bench.compare.workload.Workload;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.BatchResult;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ColumnSelection;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The raw engine ceiling, in a child JVM with the server's heap and collector: the bench's PE workloads run in
 * process against basalt-storage (JE) with the server's JE cache, the same tables (8 regions, PE's rows), the same
 * threads and run time, and the same operations as the HBase client sends them (a put per call; buffered puts in
 * batches per region of what a 2 MB write buffer holds; gets of info:0; scans fetching 30 rows per call), but no
 * RPC, protobuf or client. Args: DATA_DIR RESULTS_FILE CACHE_MB SECONDS REPS THREADS WRITE_KEYSPACE FILTER.
 * Appends one line per workload to RESULTS_FILE: id, operations, nanoseconds, process CPU nanoseconds.
 */
public final class RawEngineMain {
  /** Puts a BufferedMutator's default 2 MB write buffer holds before it flushes (about 1.1 KB of heap each). */
  static final int BUFFERED_PUTS = 1900;
  static final int SCAN_CACHING = 30;

  private RawEngineMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 8) {
      System.err.println("usage: RawEngineMain DATA_DIR RESULTS_FILE CACHE_MB SECONDS REPS THREADS WRITE_KEYSPACE FILTER");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    Path results = Path.of(args[1]);
    int cacheMb = Integer.parseInt(args[2]);
    Plan plan = Plan.quick().withMemory(cacheMb * 2, cacheMb)
        .withRunTime(Duration.ofMillis(Math.round(Double.parseDouble(args[3]) * 1000)))
        .withRepetitions(Integer.parseInt(args[4])).withThreads(Integer.parseInt(args[5]))
        .withWriteKeyspace(Long.parseLong(args[6]));
    String filter = args[7].equals("-") ? null : args[7];
    StorageConfig config = StorageConfig.DEFAULT.withCacheBytes((long) cacheMb << 20);
    Map<String, RawPeTable> tables = new HashMap<>();
    try (JeStorageEngine engine = new JeStorageEngine(config)) {
      for (Workload w : WorkloadSet.of(plan, filter)) {
        if (!(w instanceof PeWorkload pe)) {
          continue; // YCSB needs its own generators: not mirrored here
        }
        PeTable t = pe.table();
        RawPeTable table = tables.get(t.tableName());
        if (table == null) {
          table = new RawPeTable(engine, dir.resolve(t.tableName()), t.keyspace());
          table.load(t.rows());
          tables.put(t.tableName(), table);
        }
        long ops = 0;
        long nanos = 0;
        long cpu0 = processCpuNanos();
        for (int rep = 0; rep < plan.repetitions(); rep++) {
          long t0 = System.nanoTime();
          ops += run(pe, table, t.rows(), plan);
          nanos += System.nanoTime() - t0;
        }
        long cpu = processCpuNanos() - cpu0;
        Files.writeString(results, Comparison.id(w) + "\t" + ops + "\t" + nanos + "\t" + cpu + "\n",
            StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
      for (RawPeTable t : tables.values()) {
        t.close();
      }
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** One measured run: the workload's threads until the run time is spent or their share of the key space is done. */
  static long run(PeWorkload w, RawPeTable table, long loadedRows, Plan plan) throws Exception {
    int threads = w.threads();
    long perThread = w.kind() == PeWorkload.Kind.SEQUENTIAL_WRITE || w.kind() == PeWorkload.Kind.RANDOM_WRITE
        ? Math.max(1, plan.writeKeyspace() / threads) : Long.MAX_VALUE;
    long deadline = System.nanoTime() + plan.runTime().toNanos();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Long>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        parts.add(pool.submit(() -> work(w, table, loadedRows, thread, perThread, deadline)));
      }
      long ops = 0;
      for (Future<Long> f : parts) {
        ops += f.get();
      }
      return ops;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long work(PeWorkload w, RawPeTable table, long rows, int thread, long perThread, long deadline) {
    int threads = w.threads();
    long ops = 0;
    switch (w.kind()) {
      case SEQUENTIAL_WRITE, RANDOM_WRITE -> {
        long keyspace = table.keyspace;
        long sliceStart = keyspace * thread / threads;
        long sliceLength = Math.max(1, keyspace / threads);
        List<List<RowMutation>> buffer = new ArrayList<>();
        for (int r = 0; r < 8; r++) {
          buffer.add(new ArrayList<>());
        }
        int buffered = 0;
        while (ops < perThread && System.nanoTime() < deadline) {
          long row = w.kind() == PeWorkload.Kind.SEQUENTIAL_WRITE ? sliceStart + ops % sliceLength
              : ThreadLocalRandom.current().nextLong(keyspace);
          RowMutation put = RawPeTable.put(row);
          if (w.buffered()) {
            buffer.get(table.regionIndex(put.row())).add(put);
            if (++buffered == BUFFERED_PUTS) {
              flush(table, buffer);
              buffered = 0;
            }
          } else {
            table.regionOf(put.row()).mutate(put, Durability.SYNC_WAL);
          }
          ops++;
        }
        flush(table, buffer); // as the mutator's close: inside the run's time
      }
      case RANDOM_READ -> {
        ReadOptions read = ReadOptions.DEFAULT.withColumns(
            ColumnSelection.builder().column(PeRows.FAMILY, PeRows.QUALIFIER).build());
        while (System.nanoTime() < deadline) {
          byte[] row = PeRows.key(ThreadLocalRandom.current().nextLong(rows));
          table.regionOf(row).get(row, read);
          ops++;
        }
      }
      case SCAN -> {
        // As the comparison's scan: the thread's slice again and again until the time is up.
        long pass;
        do {
          pass = scan(table, rows * thread / threads, rows * (thread + 1) / threads, deadline, true);
          ops += pass;
        } while (pass > 0 && System.nanoTime() < deadline);
      }
      case SCAN_RANGE_100 -> {
        while (System.nanoTime() < deadline) {
          long start = ThreadLocalRandom.current().nextLong(Math.max(1, rows - 100));
          scan(table, start, start + 100, Long.MAX_VALUE, false);
          ops++;
        }
      }
      default -> throw new IllegalStateException("unknown workload " + w.kind());
    }
    return ops;
  }

  private static void flush(RawPeTable table, List<List<RowMutation>> buffer) {
    for (int r = 0; r < buffer.size(); r++) {
      List<RowMutation> part = buffer.get(r);
      if (!part.isEmpty()) {
        BatchResult result = table.region(r).mutateBatch(part, Durability.SYNC_WAL);
        if (!result.allApplied()) {
          throw new IllegalStateException("a buffered put failed", firstFailure(result));
        }
        part.clear();
      }
    }
  }

  private static RuntimeException firstFailure(BatchResult result) {
    for (int i = 0; i < result.size(); i++) {
      if (!result.applied(i)) {
        return result.failure(i);
      }
    }
    return null;
  }

  /** Rows {@code [from, to)} across the regions, {@link #SCAN_CACHING} rows per call; returns the rows seen. */
  private static long scan(RawPeTable table, long from, long to, long deadline, boolean stopAtDeadline) {
    byte[] start = PeRows.key(from);
    byte[] stop = PeRows.key(to);
    long seen = 0;
    for (int r = table.regionIndex(start); r < 8; r++) {
      try (RegionScanner s = table.region(r).scan(ScanSpec.range(start, stop))) {
        while (!s.isDone()) {
          if (stopAtDeadline && System.nanoTime() >= deadline) {
            return seen;
          }
          List<RowResult> batch = s.next(SCAN_CACHING, Long.MAX_VALUE);
          seen += batch.size();
        }
      }
      if (r == 7 || Bytes.compare(stop, table.region(r + 1).descriptor().range().start()) <= 0) {
        break;
      }
    }
    return seen;
  }
}
