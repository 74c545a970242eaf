package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.TimingSensitive;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Split of a replicated region (3 region servers, 3 copies) on real processes: under write load each
 * member clones its own log, both daughters get 3 members on 3 servers, writes resume, nothing
 * acknowledged is lost, and a daughter's secondary answers TIMELINE reads of its own rows only. A master
 * that dies at the split's point of no return finishes it when it comes back.
 */
@Timeout(400)
@TimingSensitive
class ReplicatedSplitTest {
  private static final byte[] SPLIT = Bytes.toBytes("k8");
  @TempDir Path dir;

  private static TableName createTable(Admin admin, String name) throws IOException {
    TableName t = TableName.valueOf(name);
    admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F))
        .build());
    return t;
  }

  private static List<RegionInfo> primaries(Admin admin, TableName name) throws IOException {
    return admin.getRegions(name).stream().filter(r -> r.getReplicaId() == 0).toList();
  }

  @Test
  void aSplitUnderLoadGivesEachDaughterThreeMembersAndLosesNothing() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "replicated_split");
      assertThat(primaries(admin, name)).hasSize(1);
      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(3_000, 90_000);
        load.resetWriteGaps();
        long start = System.nanoTime();
        admin.split(name, SPLIT);
        long splitMillis = (System.nanoTime() - start) / 1_000_000;
        load.awaitWrites(1_000, 90_000);
        long gap = load.longestWriteGapMillis();
        System.out.println("replicated split: Admin.split returned after " + splitMillis + " ms; longest writer wait "
            + "across it " + gap + " ms; " + load.acknowledgedWrites() + " writes acknowledged so far");

        List<RegionInfo> daughters = primaries(admin, name);
        assertThat(daughters).hasSize(2);
        assertThat(admin.getRegions(name)).as("2 daughters x 3 replicas").hasSize(6);
        try (RegionLocator locator = conn.getRegionLocator(name)) {
          for (RegionInfo d : daughters) {
            byte[] row = d.getStartKey().length == 0 ? Bytes.toBytes("k0") : d.getStartKey();
            List<HRegionLocation> copies = locator.getRegionLocations(row, true);
            assertThat(copies).as("replicas 0..2 of %s", d.getRegionNameAsString()).hasSize(3);
            Set<ServerName> servers = new HashSet<>();
            copies.forEach(c -> servers.add(c.getServerName()));
            assertThat(servers).as("on 3 distinct servers").hasSize(3);
          }
        }
        load.close();
        assertThat(load.verify()).as("acknowledged writes lost (of %s)", load.acknowledgedWrites()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }

      // A daughter's secondary answers TIMELINE reads of its rows, stale-marked, and no row of its sibling.
      byte[] low = Bytes.toBytes("k1-timeline");
      byte[] high = Bytes.toBytes("k9-timeline");
      try (Table t = conn.getTable(name)) {
        t.put(new Put(low).addColumn(Workload.F, Workload.Q, Bytes.toBytes("low")));
        t.put(new Put(high).addColumn(Workload.F, Workload.Q, Bytes.toBytes("high")));
        Result stale = awaitOnSecondary(t, low, "low");
        assertThat(stale.isStale()).as("answered by a secondary").isTrue();
        List<String> rows = new ArrayList<>();
        try (ResultScanner s = t.getScanner(new Scan().setConsistency(Consistency.TIMELINE).setReplicaId(1))) {
          for (Result r : s) {
            rows.add(Bytes.toStringBinary(r.getRow()));
          }
        }
        assertThat(rows).as("a secondary's scan stops at its daughter's end (no row twice)").doesNotHaveDuplicates();
        assertThat(rows).isSorted().contains("k1-timeline");
      }
    }
  }

  /** A TIMELINE get from replica 1, retried until that secondary has applied the write (bounded). */
  private static Result awaitOnSecondary(Table t, byte[] row, String value) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      Result r = t.get(new Get(row).setConsistency(Consistency.TIMELINE).setReplicaId(1));
      if (value.equals(Bytes.toString(r.getValue(Workload.F, Workload.Q)))) {
        return r;
      }
      assertThat(System.nanoTime()).as("replica 1 has %s", Bytes.toString(row)).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  @Test
  void aMasterThatDiesAtThePointOfNoReturnFinishesTheSplit() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "replicated_split_crash");
      LocalCluster.Node master = cluster.masters().get(0);
      cluster.stop(master);
      master.crashAt("master.gsplit.recorded.cloned");
      cluster.start(master);
      cluster.awaitActiveMaster();
      try (Workload load = new Workload(conn, name, 3, 0).start()) {
        load.awaitWrites(2_000, 90_000);
        try (Connection c = ConnectionFactory.createConnection(cluster.impatientClientConfiguration());
             Admin a = c.getAdmin()) {
          a.split(name, SPLIT);
        } catch (Exception expected) {
          System.out.println("replicated split: the split call ended with " + expected);
        }
        assertThat(master.awaitExit(60)).as("the master halts at the point of no return").isTrue();
        master.clearJvmFlags();
        cluster.start(master);
        try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration());
             Admin after = fresh.getAdmin()) {
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
          while (!settled(after, name)) {
            assertThat(System.nanoTime()).as("the split finished after the master's restart").isLessThan(deadline);
            Thread.sleep(200);
          }
          load.awaitWrites(1_000, 90_000);
          load.close();
          assertThat(load.verify()).isEmpty();
          assertThat(load.wrongReads()).isZero();
          assertThat(after.getRegions(name)).as("2 daughters x 3 replicas").hasSize(6);
        }
      }
    }
  }

  private static boolean settled(Admin admin, TableName name) {
    try {
      return primaries(admin, name).size() == 2 && admin.isTableAvailable(name);
    } catch (IOException e) {
      return false;
    }
  }
}
