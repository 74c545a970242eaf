package io.basalt.bench.compare.workload;

import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/** Creates the bench's pre-split tables, dropping a leftover of an earlier run first. */
final class Tables {
  private Tables() {}

  static void recreate(Connection connection, TableName name, byte[] family, byte[][] splits) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      if (admin.tableExists(name)) {
        if (admin.isTableEnabled(name)) {
          admin.disableTable(name);
        }
        admin.deleteTable(name);
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(family)).build(), splits);
    }
  }

  /**
   * After a load HBase holds the rows in its memstore; PE users flush so reads come from HFiles through the block
   * cache, as in a long-running cluster. Basalt accepts the call and has nothing to do.
   */
  static void flush(Connection connection, TableName name) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      admin.flush(name);
    }
  }
}
