package io.basalt.bench.compare.workload;

import java.io.IOException;
import org.apache.hadoop.hbase.client.Connection;

/** One line of the report: an operation mix, its client threads and write buffering, over a data set. */
public interface Workload {
  /** Report name, e.g. "randomRead (data in cache)". */
  String name();

  /** "pe" (PerformanceEvaluation's tests) or "ycsb" (YCSB core workloads). */
  String group();

  int threads();

  /** "autoflush", "buffered" (BufferedMutator), or "-" for reads. */
  String clientBuffer();

  /** The table it needs loaded (once per target) before its first run. */
  DataSet dataSet();

  /** Sets up one measured run (nothing measured yet); {@code opsLimit} bounds the run's operations. */
  Run prepare(Connection connection, long opsLimit) throws IOException;

  /** One measured run: a worker per client thread. */
  interface Run {
    Worker worker(int thread) throws IOException;
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
