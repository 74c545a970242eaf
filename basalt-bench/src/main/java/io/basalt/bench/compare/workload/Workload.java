package io.basalt.bench.compare.workload;

import java.io.IOException;
import org.apache.hadoop.hbase.client.Connection;

/** One line of the report: an operation mix, its client threads and write buffering, over a data set. */
public interface Workload {
  /** Report name, e.g. "randomRead (data in cache)". */
  String name();

  /** "pe" (PerformanceEvaluation's tests), "ycsb" (YCSB core workloads) or "sustained" (a long write load). */
  String group();

  int threads();

  /** "autoflush", "buffered" (BufferedMutator), or "-" for reads. */
  String clientBuffer();

  /** The table it needs loaded (once per target) before its first run. */
  DataSet dataSet();

  /** Sets up one measured run (nothing measured yet); {@code opsLimit} bounds the run's operations. */
  Run prepare(Connection connection, long opsLimit) throws IOException;

  /**
   * Whether it runs once unmeasured on each target before its measured runs. PE's workloads do: a scan of the
   * in-cache table takes 1-3 s, so without it the first measured run is mostly the server's JIT compiling its read
   * path (Basalt's scans measured 30-45% faster from the third run on); and in a profile of Basalt's server over
   * the four minutes of the write workloads, the JIT compiler took 18% of its CPU, which writes had no warm-up to absorb.
   */
  default boolean warmsUp() {
    return false;
  }

  /** How long a measured run may take: the plan's run time, unless the workload has its own (a sustained load). */
  default java.time.Duration runTime(java.time.Duration planned) {
    return planned;
  }

  /** One measured run: a worker per client thread. */
  interface Run {
    Worker worker(int thread) throws IOException;

    /** Operations completed per interval of the run, for workloads that record a timeline; else null. */
    default long[] timeline() {
      return null;
    }
  }

  /** The operations of one client thread. */
  interface Worker extends AutoCloseable {
    /** Does one operation; false when this thread's share of the run is done (nothing was done then). */
    boolean next() throws IOException;

    /** Operations that the server answered with an error (counted, not thrown: YCSB's contract). */
    default long errors() {
      return 0;
    }

    /** Flushes what is buffered; part of the measured time. */
    @Override
    void close() throws IOException;
  }
}
