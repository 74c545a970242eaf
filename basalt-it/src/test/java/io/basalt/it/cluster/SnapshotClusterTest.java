package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots on real clusters: each region's files on the server that served it (a replicated region's primary
 * only), the snapshot still listed and clonable after the active master is killed, and gone from every disk once
 * deleted.
 */
@Timeout(300)
class SnapshotClusterTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%04d", i));
  }

  private static TableName create(Admin admin, String name, int regions) throws IOException {
    TableName t = TableName.valueOf(name);
    byte[][] splits = new byte[regions - 1][];
    for (int i = 0; i < splits.length; i++) {
      splits[i] = row((i + 1) * 100);
    }
    admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build(),
        splits);
    return t;
  }

  private static void write(Connection conn, TableName t, int rows) throws IOException {
    try (Table table = conn.getTable(t)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        puts.add(new Put(row(i)).addColumn(F, Q, Bytes.toBytes("v" + i)));
      }
      table.put(puts);
    }
  }

  /** Region directories of {@code snapshot} on each region server, in the order of the cluster's servers. */
  private static List<List<String>> snapshotDirs(LocalCluster cluster, String snapshot) throws IOException {
    List<List<String>> out = new ArrayList<>();
    for (LocalCluster.Node n : cluster.regionServers()) {
      Path d = n.dataDir.resolve("snapshots").resolve(snapshot);
      if (!Files.isDirectory(d)) {
        out.add(List.of());
        continue;
      }
      try (Stream<Path> s = Files.list(d)) {
        out.add(s.map(p -> p.getFileName().toString()).sorted().toList());
      }
    }
    return out;
  }

  @Test
  void aSnapshotSurvivesMasterFailoverClonesAcrossServersAndIsDeletedWithItsFiles() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 2, 2);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName t = create(admin, "cs_source", 4);
      write(conn, t, 400);
      admin.snapshot("cs1", t);
      List<List<String>> dirs = snapshotDirs(cluster, "cs1");
      assertThat(dirs.stream().mapToInt(List::size).sum()).as("one directory per region: %s", dirs).isEqualTo(4);
      assertThat(dirs).as("the regions were spread, so is the snapshot").allMatch(l -> !l.isEmpty());

      cluster.kill(cluster.masters().get(0));
      assertThat(admin.listSnapshots()).extracting(SnapshotDescription::getName).containsExactly("cs1");
      TableName copy = TableName.valueOf("cs_copy");
      admin.cloneSnapshot("cs1", copy);
      try (Table table = conn.getTable(copy)) {
        for (int i = 0; i < 400; i++) {
          assertThat(Bytes.toString(table.get(new Get(row(i))).getValue(F, Q))).as("row %d", i).isEqualTo("v" + i);
        }
      }
      admin.deleteSnapshot("cs1");
      assertThat(snapshotDirs(cluster, "cs1")).allMatch(List::isEmpty);
      assertThat(admin.listSnapshots()).isEmpty();
    }
  }

  @Test
  void aReplicatedRegionIsSnapshotOnItsPrimaryOnly() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName t = create(admin, "cs_replicated", 2);
      write(conn, t, 200);
      admin.snapshot("rs1", t);
      List<List<String>> dirs = snapshotDirs(cluster, "rs1");
      List<String> all = dirs.stream().flatMap(List::stream).sorted().toList();
      assertThat(all).as("each region once, on its primary's server: %s", dirs).hasSize(2).doesNotHaveDuplicates();
      admin.deleteSnapshot("rs1");
      assertThat(snapshotDirs(cluster, "rs1")).allMatch(List::isEmpty);
    }
  }
}
