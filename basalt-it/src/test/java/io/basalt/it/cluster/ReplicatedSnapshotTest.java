package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots of replicated tables on a 3-server cluster with 3 copies per region, through the unmodified HBase client:
 * a clone's and a restore's regions become replica groups of 3 members on distinct servers, every row reads back,
 * and still does after the clone's primary is killed; the backup round trip (write, snapshot, export, a new
 * cluster, import, clone, read back every row) works as it does unreplicated.
 */
@Timeout(240)
class ReplicatedSnapshotTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 600;

  @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS) Path dir;

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%04d", i));
  }

  private static TableName create(Admin admin, String name) throws IOException {
    TableName t = TableName.valueOf(name);
    admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build(),
        new byte[][] {row(ROWS / 2)});
    return t;
  }

  private static void write(Connection conn, TableName t, String prefix, int from, int to) throws IOException {
    try (Table table = conn.getTable(t)) {
      List<Put> puts = new ArrayList<>();
      for (int i = from; i < to; i++) {
        puts.add(new Put(row(i)).addColumn(F, Q, Bytes.toBytes(prefix + i)));
      }
      table.put(puts);
    }
  }

  private static void readBack(Connection conn, TableName t, String prefix, int rows) throws IOException {
    try (Table table = conn.getTable(t)) {
      for (int i = 0; i < rows; i++) {
        assertThat(Bytes.toString(table.get(new Get(row(i))).getValue(F, Q))).as("%s row %d", t, i)
            .isEqualTo(prefix + i);
      }
    }
  }

  /** Every region of {@code t} with its copies' servers (the primary first), as hbase:meta lists them. */
  private static Map<String, List<ServerName>> copies(Connection conn, TableName t) throws IOException {
    Map<String, List<ServerName>> out = new java.util.TreeMap<>();
    try (RegionLocator locator = conn.getRegionLocator(t)) {
      for (RegionInfo r : conn.getAdmin().getRegions(t)) {
        if (r.getReplicaId() != 0) {
          continue;
        }
        out.put(r.getEncodedName(), locator.getRegionLocations(r.getStartKey(), true).stream()
            .map(HRegionLocation::getServerName).toList());
      }
    }
    return out;
  }

  private static void assertThreeCopiesEach(Connection conn, TableName t) throws IOException {
    Map<String, List<ServerName>> copies = copies(conn, t);
    assertThat(copies).as("%s's regions", t).hasSize(2);
    copies.forEach((region, servers) -> {
      assertThat(servers).as("copies of %s", region).hasSize(3).doesNotContainNull();
      assertThat(Set.copyOf(servers)).as("copies of %s on distinct servers", region).hasSize(3);
    });
  }

  @Test
  void cloneAndRestoreMakeReplicaGroupsThatSurviveTheirPrimarysDeath() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName t = create(admin, "rsnap_source");
      write(conn, t, "v", 0, ROWS);
      admin.snapshot("rsnap1", t);
      write(conn, t, "after", 0, ROWS / 4); // not in the snapshot

      TableName copy = TableName.valueOf("rsnap_copy");
      long start = System.nanoTime();
      admin.cloneSnapshot("rsnap1", copy);
      System.out.println("replicated snapshot: clone of 2 regions x 3 copies took "
          + (System.nanoTime() - start) / 1_000_000 + " ms");
      assertThat(admin.isTableEnabled(copy)).isTrue();
      assertThreeCopiesEach(conn, copy);
      readBack(conn, copy, "v", ROWS);
      write(conn, copy, "clone", 0, 10); // the clone takes writes, the source does not see them
      try (Table source = conn.getTable(t)) {
        assertThat(Bytes.toString(source.get(new Get(row(0))).getValue(F, Q))).isEqualTo("after0");
      }

      // Restore: the source's post-snapshot writes go, its regions become new groups of 3.
      admin.disableTable(t);
      start = System.nanoTime();
      admin.restoreSnapshot("rsnap1");
      System.out.println("replicated snapshot: restore of 2 regions x 3 copies took "
          + (System.nanoTime() - start) / 1_000_000 + " ms");
      admin.enableTable(t);
      assertThreeCopiesEach(conn, t);
      readBack(conn, t, "v", ROWS);

      // The clone's primary of its first region dies: the group elects another and every row reads back.
      ServerName primary = copies(conn, copy).values().iterator().next().get(0);
      cluster.kill(cluster.regionServerAt(primary));
      System.out.println("replicated snapshot: SIGKILL of the clone's primary " + primary);
      try (Table table = conn.getTable(copy)) {
        for (int i = 0; i < ROWS; i++) {
          assertThat(Bytes.toString(table.get(new Get(row(i))).getValue(F, Q))).as("clone row %d after the kill", i)
              .isEqualTo((i < 10 ? "clone" : "v") + i);
        }
        table.put(new Put(row(ROWS)).addColumn(F, Q, Bytes.toBytes("late")));
        assertThat(Bytes.toString(table.get(new Get(row(ROWS))).getValue(F, Q))).isEqualTo("late");
      }
      readBack(conn, t, "v", ROWS); // the restored table too: it lost one copy of three
    }
  }

  @Test
  void theBackupRoundTripWorksOnAReplicatedCluster() throws Exception {
    Path export = dir.resolve("backup");
    try (LocalCluster cluster = LocalCluster.replicated(dir.resolve("first"), 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName t = create(admin, "rbackup");
      write(conn, t, "v", 0, ROWS);
      admin.snapshot("rbackup1", t);
      byte[] bytes = admin.execProcedureWithReturn("basalt-snapshot", "export",
          Map.of("snapshot", "rbackup1", "dir", export.toString()));
      System.out.println("replicated snapshot: exported " + new String(bytes) + " bytes");
    }
    // A new, empty cluster: the first one's disks and ZooKeeper are gone with it.
    try (LocalCluster cluster = LocalCluster.replicated(dir.resolve("second"), 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      byte[] name = admin.execProcedureWithReturn("basalt-snapshot", "import", Map.of("dir", export.toString()));
      assertThat(new String(name)).isEqualTo("rbackup1");
      TableName t = TableName.valueOf("rbackup");
      admin.cloneSnapshot("rbackup1", t);
      assertThreeCopiesEach(conn, t);
      readBack(conn, t, "v", ROWS);
    }
  }
}
