package io.basalt.server.master;

import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * What a table descriptor may ask that Basalt cannot do, refused when the table is created or modified rather
 * than stored and silently ignored. HBase refuses a coprocessor class it cannot load in its table sanity check
 * with a DoNotRetryIOException "Class ... cannot be loaded"; Basalt loads none, so it refuses every one the
 * same way, naming the gap.
 */
final class DescriptorChecks {
  private DescriptorChecks() {}

  static void check(TableDescriptor desc) throws DoNotRetryIOException {
    for (CoprocessorDescriptor cp : desc.getCoprocessorDescriptors()) {
      throw new DoNotRetryIOException("Class " + cp.getClassName() + " cannot be loaded: Basalt runs no"
          + " coprocessors (table " + desc.getTableName() + "); remove the coprocessor from the table descriptor");
    }
  }
}
