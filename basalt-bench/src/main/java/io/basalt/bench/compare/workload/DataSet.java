package io.basalt.bench.compare.workload;

import java.io.IOException;
import org.apache.hadoop.hbase.client.Connection;

/** A table the workloads need, created pre-split and loaded through the HBase client once per target. */
public interface DataSet {
  /** Regions every data set's table is pre-split into (PE's --presplit=8). */
  int REGIONS = 8;

  /** Identity: workloads sharing a data set share one load. */
  String tableName();

  /** Rows loaded (0 for a table the workloads write into). */
  long rows();

  /** (Re)creates the table pre-split into {@link #REGIONS} regions and loads it with {@code threads} client threads. */
  void load(Connection connection, int threads) throws IOException, InterruptedException;
}
