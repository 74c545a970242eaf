package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The master or the region server dies (as with kill -9) at a step of taking or cloning a snapshot; after it
 * restarts, the snapshot or clone is finished or undone as its ZooKeeper record says, with no file left behind by
 * an undone one and every row in a finished clone.
 */
@Timeout(300)
class SnapshotCrashTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final int ROWS = 300;
  @TempDir Path dir;

  /** The points of no return and the region server's link step (SnapshotProtocolsTest covers every point). */
  @ParameterizedTest(name = "{0} dies at {1}")
  @CsvSource({
      "master, master.snapshot.recorded.linked, true",
      "regionserver, regionserver.snapshot.linked, false",
      "master, master.clone.recorded.cloned, true",
  })
  void crashAtTheTurningSteps(String role, String point, boolean finished) throws Exception {
    crashAt(role, point, finished);
  }

  /** The steps before them (-Dbasalt.it.allCrashPoints=true). */
  @ParameterizedTest(name = "{0} dies at {1}")
  @EnabledIfSystemProperty(named = "basalt.it.allCrashPoints", matches = "true")
  @CsvSource({
      "master, master.snapshot.recorded.started, false",
      "master, master.clone.InParallel, false",
  })
  void crashAtTheStepsBefore(String role, String point, boolean finished) throws Exception {
    crashAt(role, point, finished);
  }

  private void crashAt(String role, String point, boolean finished) throws Exception {
    boolean clone = point.contains(".clone.");
    try (LocalCluster cluster = new LocalCluster(dir, 1, 1);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName source = TableName.valueOf("sc");
      admin.createTable(TableDescriptorBuilder.newBuilder(source).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
          .build(), new byte[][] {Bytes.toBytes("row-0150")});
      try (Table t = conn.getTable(source)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
          puts.add(new Put(Bytes.toBytes(String.format("row-%04d", i))).addColumn(F, F, Bytes.toBytes("v" + i)));
        }
        t.put(puts);
      }
      if (clone) {
        admin.snapshot("s", source);
      }
      LocalCluster.Node victim = role.equals("master") ? cluster.masters().get(0) : cluster.regionServers().get(0);
      cluster.stop(victim);
      victim.crashAt(point);
      cluster.start(victim);
      if (role.equals("master")) {
        cluster.awaitActiveMaster();
      }
      awaitTrue(() -> available(admin, source), "the table online again");

      TableName copy = TableName.valueOf("sc_copy");
      // Until the victim halts: a try may fail first while the master has not yet seen the restarted server.
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (victim.alive() && System.nanoTime() < until) {
        try (Connection c = ConnectionFactory.createConnection(cluster.impatientClientConfiguration());
             Admin a = c.getAdmin()) {
          if (clone) {
            a.cloneSnapshot("s", copy);
          } else {
            a.snapshot("s", source);
          }
        } catch (Exception expected) {
          System.out.println(point + ": the call ended with " + expected);
          Thread.sleep(1000);
        }
      }
      assertThat(victim.awaitExit(60)).as("%s should have halted at %s", role, point).isTrue();
      victim.clearJvmFlags();
      cluster.start(victim);
      Path snapshots = cluster.regionServers().get(0).dataDir.resolve("snapshots");
      try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration());
           Admin after = fresh.getAdmin()) {
        if (!clone) {
          awaitTrue(() -> listed(after) == finished && files(snapshots.resolve("s")) == (finished ? 2 : 0),
              "the snapshot " + (finished ? "listed with its 2 regions' files" : "gone with every file"));
        } else if (finished) {
          awaitTrue(() -> available(after, copy), "the clone online");
          try (Table t = fresh.getTable(copy); ResultScanner s = t.getScanner(new Scan())) {
            int n = 0;
            while (s.next() != null) {
              n++;
            }
            assertThat(n).isEqualTo(ROWS);
          }
        } else {
          awaitTrue(() -> !exists(after, copy) && listed(after), "no clone table, the snapshot intact");
          Path regions = cluster.regionServers().get(0).dataDir.resolve("regions");
          // The source's two regions are all that is left: the undone clone's directories went.
          awaitTrue(() -> files(regions) == 2, "only the source's two region directories");
        }
      }
    }
  }

  /**
   * A replicated clone (3 servers, 3 copies) whose master dies once the clone is recorded, or whose founder's server
   * dies once it founded the new group (before the point of no return): after the restart the clone is served by
   * 3 copies with every row, or gone with every directory and cloned again.
   */
  @ParameterizedTest(name = "replicated: {0} dies at {1}")
  @CsvSource({
      "master, master.clone.recorded.cloned, true",
      "regionserver, regionserver.clone.founded, false",
  })
  void replicatedCloneCrashAt(String role, String point, boolean finished) throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName source = TableName.valueOf("rsc");
      admin.createTable(TableDescriptorBuilder.newBuilder(source).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
          .build());
      try (Table t = conn.getTable(source)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
          puts.add(new Put(Bytes.toBytes(String.format("row-%04d", i))).addColumn(F, F, Bytes.toBytes("v" + i)));
        }
        t.put(puts);
      }
      // The snapshot's files are on the primary's server: that one founds the clone's group.
      org.apache.hadoop.hbase.ServerName primary;
      try (org.apache.hadoop.hbase.client.RegionLocator l = conn.getRegionLocator(source)) {
        primary = l.getRegionLocation(Bytes.toBytes("row-0000"), true).getServerName();
      }
      admin.snapshot("s", source);
      LocalCluster.Node victim = role.equals("master") ? cluster.masters().get(0) : cluster.regionServerAt(primary);
      cluster.stop(victim);
      victim.crashAt(point);
      cluster.start(victim);
      if (role.equals("master")) {
        cluster.awaitActiveMaster();
      } else {
        cluster.awaitRegisteredRegionServers(3);
      }
      awaitTrue(() -> available(admin, source), "the table online again");

      TableName copy = TableName.valueOf("rsc_copy");
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (victim.alive() && System.nanoTime() < until) {
        try (Connection c = ConnectionFactory.createConnection(cluster.impatientClientConfiguration());
             Admin a = c.getAdmin()) {
          a.cloneSnapshot("s", copy);
        } catch (Exception expected) {
          System.out.println(point + ": the call ended with " + expected);
          Thread.sleep(1000);
        }
      }
      assertThat(victim.awaitExit(60)).as("%s should have halted at %s", role, point).isTrue();
      victim.clearJvmFlags();
      cluster.start(victim);
      try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration());
           Admin after = fresh.getAdmin()) {
        if (!finished) {
          awaitTrue(() -> !exists(after, copy) && listed(after), "no clone table, the snapshot intact");
          Path regions = victim.dataDir.resolve("regions");
          // The source's member is all that is left on the founder's disk: the undone clone's directory went.
          awaitTrue(() -> files(regions) == 1, "only the source's region directory on the founder");
          after.cloneSnapshot("s", copy);
        }
        awaitTrue(() -> available(after, copy), "the clone online");
        try (org.apache.hadoop.hbase.client.RegionLocator l = fresh.getRegionLocator(copy)) {
          assertThat(l.getRegionLocations(Bytes.toBytes("row-0000"), true).stream()
              .map(org.apache.hadoop.hbase.HRegionLocation::getServerName).distinct().count()).isEqualTo(3);
        }
        try (Table t = fresh.getTable(copy); ResultScanner s = t.getScanner(new Scan())) {
          int n = 0;
          while (s.next() != null) {
            n++;
          }
          assertThat(n).isEqualTo(ROWS);
        }
      }
    }
  }

  private static boolean listed(Admin admin) {
    try {
      return admin.listSnapshots().stream().map(SnapshotDescription::getName).anyMatch("s"::equals);
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean available(Admin admin, TableName t) {
    try {
      return admin.tableExists(t) && admin.isTableAvailable(t);
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean exists(Admin admin, TableName t) {
    try {
      return admin.tableExists(t);
    } catch (IOException e) {
      return true;
    }
  }

  /** Entries of a directory (0 if it is missing). */
  private static int files(Path d) {
    if (!Files.isDirectory(d)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(d)) {
      return (int) s.count();
    } catch (IOException e) {
      return -1;
    }
  }

  private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.sleep(250);
    }
  }
}
