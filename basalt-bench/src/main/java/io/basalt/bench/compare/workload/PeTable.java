package io.basalt.bench.compare.workload;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * A PE table over the key space {@code [0, keyspace)}, pre-split into 8 regions; {@code rows} of it loaded with
 * buffered writes (0 for the table the write workloads fill). {@code warm} reads it once after loading, so reads
 * of a data set smaller than the cache start from a warm cache on both targets.
 */
public record PeTable(String tableName, long keyspace, long rows, boolean warm) implements DataSet {
  public TableName table() {
    return TableName.valueOf(tableName);
  }

  @Override
  public void load(Connection connection, int threads) throws IOException, InterruptedException {
    Tables.recreate(connection, table(), PeRows.FAMILY, PeRows.splits(keyspace));
    if (rows == 0) {
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Void>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long from = rows * t / threads;
        long to = rows * (t + 1) / threads;
        parts.add(pool.submit(() -> {
          try (BufferedMutator m = connection.getBufferedMutator(table())) {
            for (long i = from; i < to; i++) {
              m.mutate(PeRows.put(i));
            }
          }
          return null;
        }));
      }
      for (Future<Void> f : parts) {
        f.get();
      }
    } catch (ExecutionException e) {
      throw new IOException("loading " + tableName + " failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
    Tables.flush(connection, table());
    if (warm) {
      long seen = 0;
      try (Table t = connection.getTable(table());
          ResultScanner s = t.getScanner(new Scan().setCaching(1000))) {
        for (Result ignored : s) {
          seen++;
        }
      }
      if (seen != rows) {
        throw new IOException(tableName + ": loaded " + rows + " rows but a scan sees " + seen);
      }
    }
  }
}
