package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** HBase storage knobs are kept and shown; features Basalt lacks fail loudly, naming the feature. */
@Timeout(120)
class UnsupportedFeaturesTest {
  @TempDir static Path dir;
  static StandaloneServer server;
  static Connection conn;

  @BeforeAll
  static void start() throws Exception {
    server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 2);
    conn = ConnectionFactory.createConnection(conf);
  }

  @AfterAll
  static void stop() throws IOException {
    if (conn != null) {
      conn.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void storageKnobsAreAcceptedStoredAndShown() throws IOException {
    TableName t = TableName.valueOf("knobs");
    try (Admin admin = conn.getAdmin()) {
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
      // Flush and compaction have nothing to do in Basalt, and are accepted as in HBase.
      admin.flush(t);
      admin.compact(t);
      admin.majorCompact(t);
    }
  }

  @Test
  void snapshotsFailNamingTheFeature() throws IOException {
    TableName t = TableName.valueOf("snap");
    try (Admin admin = conn.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of("cf")).build());
      assertThatThrownBy(() -> admin.snapshot("s1", t)).isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Snapshot").hasMessageContaining("not supported by Basalt");
      assertThatThrownBy(() -> admin.listReplicationPeers()).hasMessageContaining("not supported by Basalt");
    }
  }
}
