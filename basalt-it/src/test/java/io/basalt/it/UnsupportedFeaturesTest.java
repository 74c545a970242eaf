package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.target.BothTargets;
import io.basalt.it.target.Targets;
import java.io.IOException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** HBase storage knobs are kept and shown; features Basalt lacks fail loudly, naming the feature. */
@Timeout(120)
class UnsupportedFeaturesTest {
  @BothTargets
  void storageKnobsAreAcceptedStoredAndShown(Connection conn) throws IOException {
    TableName t = TableName.valueOf("uf_knobs");
    try (Admin admin = conn.getAdmin()) {
      if (admin.tableExists(t)) {
        admin.disableTable(t);
        admin.deleteTable(t);
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(t).setValue("custom.key", "custom value")
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("cf"))
              .setCompressionType(Compression.Algorithm.GZ).setBloomFilterType(BloomType.ROWCOL)
              .setBlocksize(16 * 1024).setDataBlockEncoding(DataBlockEncoding.FAST_DIFF).setInMemory(true).build())
          .build());
      ColumnFamilyDescriptor cf = admin.getDescriptor(t).getColumnFamily(Bytes.toBytes("cf"));
      assertThat(cf.getCompressionType()).isEqualTo(Compression.Algorithm.GZ);
      assertThat(cf.getBloomFilterType()).isEqualTo(BloomType.ROWCOL);
      assertThat(cf.getBlocksize()).isEqualTo(16 * 1024);
      assertThat(cf.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.FAST_DIFF);
      assertThat(admin.getDescriptor(t).getValue("custom.key")).isEqualTo("custom value");
      // Flush and compaction are accepted as in HBase (AdminProcedureTest checks what they do).
      admin.flush(t);
      admin.compact(t);
      admin.majorCompact(t);
    }
  }

  /** Basalt only: HBase has these features. */
  @Test
  void replicationAdminFailsNamingTheFeature() throws IOException {
    Connection conn = Targets.connection(Targets.BASALT);
    try (Admin admin = conn.getAdmin()) {
      assertThatThrownBy(() -> admin.listReplicationPeers()).hasMessageContaining("not supported by Basalt");
    }
  }
}
