package io.basalt.bench.compare.workload;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * PerformanceEvaluation's tests on its row layout ({@link PeRows}), each thread a PE client: sequentialWrite
 * (each thread its own contiguous slice), randomWrite, randomRead (Get of one loaded row), scan (each thread
 * scans its slice over and over, one operation per row, caching 30 as PE) and scanRange100 (a scan of 100 rows
 * from a random loaded row, one operation per scan). Writes go one RPC per Put (autoflush) or through a
 * BufferedMutator.
 */
public record PeWorkload(Kind kind, String label, PeTable table, int threads, boolean buffered) implements Workload {
  /** PE's default scanner caching. */
  static final int PE_SCAN_CACHING = 30;

  public enum Kind {
    SEQUENTIAL_WRITE("sequentialWrite"), RANDOM_WRITE("randomWrite"), RANDOM_READ("randomRead"), SCAN("scan"),
    SCAN_RANGE_100("scanRange100");

    final String peName;

    Kind(String peName) {
      this.peName = peName;
    }

    boolean writes() {
      return this == SEQUENTIAL_WRITE || this == RANDOM_WRITE;
    }
  }

  @Override
  public String name() {
    return kind.peName + (label.isEmpty() ? "" : " (" + label + ")");
  }

  @Override
  public String group() {
    return "pe";
  }

  @Override
  public String clientBuffer() {
    return kind.writes() ? (buffered ? "buffered" : "autoflush") : "-";
  }

  @Override
  public boolean warmsUp() {
    return true;
  }

  @Override
  public DataSet dataSet() {
    return table;
  }

  @Override
  public Run prepare(Connection connection, long opsLimit) {
    long perThread = Math.max(1, opsLimit / threads);
    return thread -> switch (kind) {
      case SEQUENTIAL_WRITE, RANDOM_WRITE -> writer(connection, thread, perThread);
      case RANDOM_READ -> reader(connection, perThread);
      case SCAN -> scanner(connection, thread);
      case SCAN_RANGE_100 -> rangeScanner(connection, perThread);
    };
  }

  private Worker writer(Connection connection, int thread, long perThread) throws IOException {
    long keyspace = table.keyspace();
    // Sequential: this thread's contiguous slice of the key space, from its start, as a PE client does.
    long sliceStart = keyspace * thread / threads;
    long sliceLength = Math.max(1, keyspace / threads);
    BufferedMutator mutator = buffered ? connection.getBufferedMutator(table.table()) : null;
    Table t = buffered ? null : connection.getTable(table.table());
    return new Worker() {
      long done;

      @Override
      public boolean next() throws IOException {
        if (done >= perThread) {
          return false;
        }
        long row = kind == Kind.SEQUENTIAL_WRITE ? sliceStart + done % sliceLength
            : ThreadLocalRandom.current().nextLong(keyspace);
        Put put = PeRows.put(row);
        if (buffered) {
          mutator.mutate(put);
        } else {
          t.put(put);
        }
        done++;
        return true;
      }

      @Override
      public void close() throws IOException {
        if (buffered) {
          mutator.close();
        } else {
          t.close();
        }
      }
    };
  }

  private Worker reader(Connection connection, long perThread) throws IOException {
    Table t = connection.getTable(table.table());
    long rows = table.rows();
    return new Worker() {
      long done;
      long missing;

      @Override
      public boolean next() throws IOException {
        if (done >= perThread) {
          return false;
        }
        Result r = t.get(new Get(PeRows.key(ThreadLocalRandom.current().nextLong(rows)))
            .addColumn(PeRows.FAMILY, PeRows.QUALIFIER));
        if (r.isEmpty()) {
          missing++;
        }
        done++;
        return true;
      }

      @Override
      public long errors() {
        return missing;
      }

      @Override
      public void close() throws IOException {
        t.close();
      }
    };
  }

  /**
   * Scans the thread's slice, one operation per row, and scans it again from its start until the run's time is up: a
   * pass over the in-cache table takes under a second at 8 threads, so a single pass measured mostly the start and
   * the threads' uneven ends. Each pass is a new scanner, as a PE client's would be.
   */
  private Worker scanner(Connection connection, int thread) throws IOException {
    long rows = table.rows();
    Table t = connection.getTable(table.table());
    // A new Scan per pass: the client's scanner moves a Scan's start row as it goes from region to region.
    java.util.function.Supplier<Scan> slice = () -> new Scan().withStartRow(PeRows.key(rows * thread / threads))
        .withStopRow(PeRows.key(rows * (thread + 1) / threads)).setCaching(PE_SCAN_CACHING);
    return new Worker() {
      ResultScanner s = t.getScanner(slice.get());
      boolean passHasRows;

      @Override
      public boolean next() throws IOException {
        if (s.next() != null) {
          passHasRows = true;
          return true;
        }
        s.close();
        if (!passHasRows) {
          return false; // an empty slice
        }
        passHasRows = false;
        s = t.getScanner(slice.get());
        return next();
      }

      @Override
      public void close() throws IOException {
        s.close();
        t.close();
      }
    };
  }

  private Worker rangeScanner(Connection connection, long perThread) throws IOException {
    Table t = connection.getTable(table.table());
    long rows = table.rows();
    return new Worker() {
      long done;
      long incomplete;

      @Override
      public boolean next() throws IOException {
        if (done >= perThread) {
          return false;
        }
        long start = ThreadLocalRandom.current().nextLong(Math.max(1, rows - 100));
        int seen = 0;
        try (ResultScanner s = t.getScanner(new Scan().withStartRow(PeRows.key(start))
            .withStopRow(PeRows.key(start + 100)).setCaching(PE_SCAN_CACHING))) {
          while (s.next() != null) {
            seen++;
          }
        }
        if (seen != Math.min(100, rows)) {
          incomplete++;
        }
        done++;
        return true;
      }

      @Override
      public long errors() {
        return incomplete;
      }

      @Override
      public void close() throws IOException {
        t.close();
      }
    };
  }
}
