package io.basalt.bench.compare;

import java.time.Duration;

/**
 * The sizes of one comparison. Data sets are sized from the cache: the "in cache" table fills 40% of it, the
 * "4x cache" table four times it (1 KB values).
 *
 * @param runTime time budget of each measured run (a run also ends when its operations are done)
 * @param repetitions measured runs per workload and target, alternating between the targets
 * @param threads N, the multi-threaded client count (the single-threaded variants use 1)
 * @param writeKeyspace rows the write workloads write over (and the most a write run writes)
 * @param ycsbRecords YCSB recordcount
 * @param sustainedTime run time of the sustained write workload (which runs only when named in --workloads)
 */
public record Plan(String preset, int heapMb, int cacheMb, Duration runTime, int repetitions, int threads,
    long writeKeyspace, long ycsbRecords, Duration sustainedTime) {

  /** A few minutes on a laptop: 64 MB cache, 2 s runs. */
  public static Plan quick() {
    return new Plan("quick", 1024, 64, Duration.ofSeconds(2), 2, 4, 200_000, 20_000, Duration.ofMinutes(10));
  }

  /** Paper-sized where a workstation disk allows: 512 MB cache, 2 GB "4x cache" table, 30 s runs. */
  public static Plan full() {
    return new Plan("full", 2048, 512, Duration.ofSeconds(30), 2, 8, 2_000_000, 1_000_000, Duration.ofMinutes(30));
  }

  /** Rows of the in-cache read table: 40% of the cache (a 1 KB row takes about 1.1 KB in either cache). */
  public long cachedRows() {
    return Math.max(1000, cacheMb * 1024L * 4 / 10);
  }

  /** Rows of the table four times the cache. */
  public long uncachedRows() {
    return cacheMb * 1024L * 4;
  }

  public Plan withRunTime(Duration d) {
    return new Plan(preset, heapMb, cacheMb, d, repetitions, threads, writeKeyspace, ycsbRecords, sustainedTime);
  }

  public Plan withRepetitions(int n) {
    return new Plan(preset, heapMb, cacheMb, runTime, n, threads, writeKeyspace, ycsbRecords, sustainedTime);
  }

  public Plan withThreads(int n) {
    return new Plan(preset, heapMb, cacheMb, runTime, repetitions, n, writeKeyspace, ycsbRecords, sustainedTime);
  }

  public Plan withMemory(int heap, int cache) {
    return new Plan(preset, heap, cache, runTime, repetitions, threads, writeKeyspace, ycsbRecords, sustainedTime);
  }

  public Plan withWriteKeyspace(long rows) {
    return new Plan(preset, heapMb, cacheMb, runTime, repetitions, threads, rows, ycsbRecords, sustainedTime);
  }

  public Plan withSustainedTime(Duration d) {
    return new Plan(preset, heapMb, cacheMb, runTime, repetitions, threads, writeKeyspace, ycsbRecords, d);
  }

  /** Rows of the sustained write workload's key space: ten times the cache, as the paper's population phase. */
  public long sustainedRows() {
    return cacheMb * 1024L * 10;
  }

  public Plan withYcsbRecords(long records) {
    return new Plan(preset, heapMb, cacheMb, runTime, repetitions, threads, writeKeyspace, records, sustainedTime);
  }
}
