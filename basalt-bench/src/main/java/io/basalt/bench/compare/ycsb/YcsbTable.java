package io.basalt.bench.compare.ycsb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import io.basalt.bench.compare.workload.DataSet;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's usertable, pre-split into 8 regions on YCSB's hashed keys ("user" + a decimal hash, split at user1999,
 * user3124, ... as the HBase docs recommend), loaded by YCSB's own load phase (CoreWorkload.doInsert).
 */
public record YcsbTable(String tableName, long records) implements DataSet {
  static {
    // CoreWorkload records read-modify-write latencies in YCSB's measurement singleton; it needs its settings.
    Measurements.setProperties(new Properties());
  }

  public TableName table() {
    return TableName.valueOf(tableName);
  }

  @Override
  public long rows() {
    return records;
  }

  @Override
  public void load(Connection connection, int threads) throws IOException, InterruptedException {
    try (Admin admin = connection.getAdmin()) {
      if (admin.tableExists(table())) {
        if (admin.isTableEnabled(table())) {
          admin.disableTable(table());
        }
        admin.deleteTable(table());
      }
      byte[][] splits = new byte[7][];
      for (int i = 1; i < 8; i++) {
        splits[i - 1] = Bytes.toBytes("user" + (1000 + i * (9999 - 1000) / 8));
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(table())
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(HBaseBinding.FAMILY)).build(), splits);
    }
    CoreWorkload workload = workload(YcsbMix.A, records, "uniform");
    Properties props = YcsbMix.A.properties(tableName, records, records, "uniform");
    AtomicLong next = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Long>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        parts.add(pool.submit(() -> {
          Object state = workload.initThread(props, thread, threads);
          HBaseBinding db = new HBaseBinding(connection, table());
          try {
            while (next.getAndIncrement() < records) {
              if (!workload.doInsert(db, state)) {
                throw new IOException("YCSB insert failed");
              }
            }
          } finally {
            db.cleanup();
          }
          return db.errors();
        }));
      }
      for (Future<Long> f : parts) {
        if (f.get() > 0) {
          throw new IOException("YCSB load of " + tableName + " had errors");
        }
      }
    } catch (ExecutionException e) {
      throw new IOException("YCSB load of " + tableName + " failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
    try (Admin admin = connection.getAdmin()) {
      admin.flush(table());
    }
  }

  CoreWorkload workload(YcsbMix mix, long operations, String distribution) throws IOException {
    CoreWorkload w = new CoreWorkload();
    try {
      w.init(mix.properties(tableName, records, operations, distribution));
    } catch (WorkloadException e) {
      throw new IOException("YCSB workload " + mix + ": " + e.getMessage(), e);
    }
    return w;
  }
}
