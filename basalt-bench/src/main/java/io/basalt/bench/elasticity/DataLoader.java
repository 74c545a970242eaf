package io.basalt.bench.elasticity;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;

/**
 * Fills a table fast through the HBase client: a BufferedMutator batches puts of incompressible values,
 * written with SKIP_WAL (the load itself is not measured; the region server still logs every write, it
 * just does not sync per batch).
 */
final class DataLoader {
  private DataLoader() {}

  /** Writes rows {@code 0..keys.count()-1} of {@code keys}, each with a {@code valueBytes} value. */
  static void load(Connection conn, TableName table, KeySpace keys, int valueBytes) throws IOException {
    byte[] value = new byte[valueBytes];
    ThreadLocalRandom.current().nextBytes(value);
    BufferedMutatorParams params = new BufferedMutatorParams(table).writeBufferSize(8L << 20);
    try (BufferedMutator mutator = conn.getBufferedMutator(params)) {
      for (long i = 0; i < keys.count(); i++) {
        // a few bytes differ per row so no two values are equal
        value[(int) (i % valueBytes)] ^= (byte) i;
        mutator.mutate(new Put(keys.row(i)).setDurability(Durability.SKIP_WAL)
            .addColumn(KeySpace.FAMILY, KeySpace.QUALIFIER, value.clone()));
      }
    }
  }
}
