package io.basalt.bench.compare.ycsb;

import io.basalt.bench.compare.workload.DataSet;
import io.basalt.bench.compare.workload.Workload;
import java.io.IOException;
import java.util.Properties;
import org.apache.hadoop.hbase.client.Connection;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

/** A YCSB core workload run by YCSB's own generator (CoreWorkload.doTransaction) through {@link HBaseBinding}. */
public record YcsbWorkload(YcsbMix mix, String distribution, YcsbTable table, int threads) implements Workload {
  @Override
  public String name() {
    return "ycsb-" + mix.name().toLowerCase() + " " + distribution;
  }

  @Override
  public String group() {
    return "ycsb";
  }

  @Override
  public String clientBuffer() {
    return "-";
  }

  @Override
  public DataSet dataSet() {
    return table;
  }

  @Override
  public Run prepare(Connection connection, long opsLimit) throws IOException {
    CoreWorkload workload = table.workload(mix, opsLimit, distribution);
    Properties props = mix.properties(table.tableName(), table.records(), opsLimit, distribution);
    long perThread = Math.max(1, opsLimit / threads);
    return thread -> {
      Object state;
      try {
        state = workload.initThread(props, thread, threads);
      } catch (WorkloadException e) {
        throw new IOException(e);
      }
      HBaseBinding db = new HBaseBinding(connection, table.table());
      return new Worker() {
        long done;

        @Override
        public boolean next() {
          if (done >= perThread) {
            return false;
          }
          workload.doTransaction(db, state);
          done++;
          return true;
        }

        @Override
        public long errors() {
          return db.errors();
        }

        @Override
        public void close() {
          db.cleanup();
        }
      };
    };
  }
}
