package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.target.BothTargets;
import io.basalt.it.target.Targets;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.visibility.Authorizations;
import org.apache.hadoop.hbase.security.visibility.CellVisibility;
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

  /**
   * Basalt only: cell ACLs and visibility labels are refused with DoNotRetryIOException naming the gap, whether
   * authorisation is on or not (HBase without its AccessController or VisibilityController stores the cells
   * unprotected); in a batch only the action that carries one is refused, the others land.
   */
  @Test
  void cellAclsAndVisibilityLabelsAreRefusedNotIgnored() throws Exception {
    Connection conn = Targets.connection(Targets.BASALT);
    TableName t = TableName.valueOf("uf_cell_security");
    byte[] f = Bytes.toBytes("f");
    try (Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(t)) {
        admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(f))
            .build());
      }
    }
    try (Table table = conn.getTable(t)) {
      Put withAcl = new Put(Bytes.toBytes("acl")).addColumn(f, f, Bytes.toBytes("v"));
      withAcl.setACL("bob", new Permission(Permission.Action.READ));
      assertThatThrownBy(() -> table.put(withAcl)).isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Cell ACLs (Mutation.setACL) are not supported by Basalt");
      Put labelled = new Put(Bytes.toBytes("label")).addColumn(f, f, Bytes.toBytes("v"));
      labelled.setCellVisibility(new CellVisibility("secret"));
      assertThatThrownBy(() -> table.put(labelled)).isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Visibility labels (Mutation.setCellVisibility) are not supported by Basalt");
      assertThatThrownBy(() -> table.get(new Get(Bytes.toBytes("acl")).setAuthorizations(new Authorizations("secret"))))
          .isInstanceOf(DoNotRetryIOException.class).hasMessageContaining("Get.setAuthorizations");
      assertThatThrownBy(() -> {
        try (ResultScanner s = table.getScanner(new Scan().setAuthorizations(new Authorizations("secret")))) {
          s.next();
        }
      }).isInstanceOf(DoNotRetryIOException.class).hasMessageContaining("Scan.setAuthorizations");
      assertThat(table.exists(new Get(Bytes.toBytes("acl")))).isFalse();
      assertThat(table.exists(new Get(Bytes.toBytes("label")))).isFalse();

      // a batch: the labelled Put is refused, the plain ones before and after it (their cells in the same cell
      // block) land with their own values
      Put before = new Put(Bytes.toBytes("b1")).addColumn(f, f, Bytes.toBytes("one"));
      Put after = new Put(Bytes.toBytes("b3")).addColumn(f, f, Bytes.toBytes("three"));
      Put refused = new Put(Bytes.toBytes("b2")).addColumn(f, f, Bytes.toBytes("two"));
      refused.setCellVisibility(new CellVisibility("secret"));
      Object[] results = new Object[3];
      assertThatThrownBy(() -> table.batch(List.of(before, refused, after), results))
          .isInstanceOf(RetriesExhaustedWithDetailsException.class);
      assertThat(results[1]).isInstanceOf(DoNotRetryIOException.class);
      assertThat(table.get(new Get(Bytes.toBytes("b1"))).getValue(f, f)).isEqualTo(Bytes.toBytes("one"));
      assertThat(table.get(new Get(Bytes.toBytes("b3"))).getValue(f, f)).isEqualTo(Bytes.toBytes("three"));
      assertThat(table.exists(new Get(Bytes.toBytes("b2")))).isFalse();
    }
  }
}
