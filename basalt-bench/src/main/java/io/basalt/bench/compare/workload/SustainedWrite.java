package io.basalt.bench.compare.workload;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The paper's population phase (seed 004, Fig. 6): N client threads load random PE rows through buffered writes
 * into a table whose key space is ten times the cache, for minutes rather than seconds, so that HBase's flushes and
 * compactions and JE's cleaner and checkpointer all take their turn. Completed puts are counted per
 * {@link #INTERVAL} from the run's first operation; the report plots them per target.
 */
public final class SustainedWrite implements Workload {
  public static final Duration INTERVAL = Duration.ofSeconds(10);

  private final PeTable table;
  private final int threads;
  private final Duration runTime;

  public SustainedWrite(long keyspace, int threads, Duration runTime) {
    this.table = new PeTable("bench_pe_sustained", keyspace, 0, false);
    this.threads = threads;
    this.runTime = runTime;
  }

  @Override
  public String name() {
    return "sustainedWrite (10x cache)";
  }

  @Override
  public String group() {
    return "sustained";
  }

  @Override
  public int threads() {
    return threads;
  }

  @Override
  public String clientBuffer() {
    return "buffered";
  }

  @Override
  public DataSet dataSet() {
    return table;
  }

  @Override
  public Duration runTime(Duration planned) {
    return runTime;
  }

  @Override
  public Run prepare(Connection connection, long opsLimit) {
    // One slot per interval, and one for puts acknowledged by the last flush after the run time.
    AtomicLongArray counts = new AtomicLongArray((int) (runTime.toNanos() / INTERVAL.toNanos()) + 2);
    java.util.concurrent.atomic.AtomicLong started = new java.util.concurrent.atomic.AtomicLong();
    return new Run() {
      @Override
      public Worker worker(int thread) throws IOException {
        BufferedMutator mutator = connection.getBufferedMutator(table.table());
        return new Worker() {
          long failures;

          /**
           * A target that stalls writes longer than the client's operation timeout (HBase blocking updates while
           * compactions catch up: the very thing this workload is to show) fails the flush: counted as an error,
           * and the run goes on, so the stall shows as intervals with few puts instead of ending the bench.
           */
          @Override
          public boolean next() {
            try {
              mutator.mutate(PeRows.put(ThreadLocalRandom.current().nextLong(table.keyspace())));
              count();
            } catch (IOException e) {
              failures++;
            }
            return true;
          }

          @Override
          public long errors() {
            return failures;
          }

          @Override
          public void close() {
            try {
              mutator.close();
            } catch (IOException e) {
              failures++; // the last flush failed as above
            }
          }
        };
      }

      /** Counted when the client takes the put: the buffer flushes 2 MB at a time, which evens out over an interval. */
      private void count() {
        long now = System.nanoTime();
        if (started.get() == 0) {
          started.compareAndSet(0, now);
        }
        int slot = (int) Math.min(counts.length() - 1, Math.max(0, now - started.get()) / INTERVAL.toNanos());
        counts.incrementAndGet(slot);
      }

      @Override
      public long[] timeline() {
        long[] out = new long[counts.length()];
        for (int i = 0; i < out.length; i++) {
          out[i] = counts.get(i);
        }
        return out;
      }
    };
  }
}
