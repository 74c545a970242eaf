package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The master or the region server dies (as with kill -9) at each step of a split, under write load; after
 * it restarts the split is either undone (one region) or finished (two), as its ZooKeeper record says, and
 * every acknowledged write is read back.
 */
@Timeout(300)
class SplitCrashTest {
  @TempDir Path dir;

  /**
   * The last point before the turn and the first after it, and the region server's own steps: run by default
   * (SplitProtocolTest injects a crash at every point, and every pair, against a simulated cluster).
   */
  @ParameterizedTest(name = "{0} dies at {1}")
  @CsvSource({
      "master, master.split.CloseAndClone, 1",
      "master, master.split.recorded.cloned, 2",
      "regionserver, regionserver.split.closed, 1",
      "regionserver, regionserver.split.cloned-one, 1",
  })
  void crashAtTheTurningSteps(String role, String point, int regionsAfter) throws Exception {
    crashAt(role, point, regionsAfter);
  }

  /** Every other step of the master's (-Dbasalt.it.allCrashPoints=true; about 30 s each). */
  @ParameterizedTest(name = "{0} dies at {1}")
  @EnabledIfSystemProperty(named = "basalt.it.allCrashPoints", matches = "true")
  @CsvSource({
      "master, master.split.recorded.started, 1",
      "master, master.split.OpenDaughters, 2",
      "master, master.split.SetRegionState, 1",
      "master, master.split.PublishSplit, 2",
      "master, master.split.recorded.published, 2",
      "master, master.split.DropRegionFiles, 2",
  })
  void crashAtEveryOtherStep(String role, String point, int regionsAfter) throws Exception {
    crashAt(role, point, regionsAfter);
  }

  private void crashAt(String role, String point, int regionsAfter) throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 1);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("crash");
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build());
      LocalCluster.Node victim = role.equals("master") ? cluster.masters().get(0) : cluster.regionServers().get(0);
      // Restart the victim with the crash point armed (data and registrations survive a clean restart).
      cluster.stop(victim);
      victim.crashAt(point);
      cluster.start(victim);
      if (role.equals("master")) {
        cluster.awaitActiveMaster();
      }
      awaitOnline(admin, name);

      try (Workload load = new Workload(conn, name, 3, 0).start()) {
        load.awaitWrites(2000, 60_000);
        try (Connection c = ConnectionFactory.createConnection(cluster.impatientClientConfiguration());
             Admin a = c.getAdmin()) {
          a.split(name, Bytes.toBytes("k8"));
        } catch (Exception expected) {
          // the process that was driving or executing it died
          System.out.println(point + ": split call ended with " + expected);
        }
        assertThat(victim.awaitExit(60)).as("%s should have halted at %s", role, point).isTrue();
        victim.clearJvmFlags();
        cluster.start(victim);
        // A fresh client: the old Admin backs off for minutes from a master that went away (as with HBase).
        try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration());
             Admin after = fresh.getAdmin()) {
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
          while (!settled(after, name, regionsAfter)) {
            assertThat(System.nanoTime()).as("split state after the restart").isLessThan(deadline);
            Thread.sleep(200);
          }
          load.awaitWrites(1000, 90_000);
          load.close();
          assertThat(load.verify()).isEmpty();
          assertThat(load.wrongReads()).isZero();
          assertThat(after.getRegions(name)).hasSize(regionsAfter);
        }
      }
    }
  }

  private static void awaitOnline(Admin admin, TableName name) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        if (admin.isTableAvailable(name)) {
          return;
        }
      } catch (java.io.IOException e) {
        // master restarting
      }
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private static boolean settled(Admin admin, TableName name, int regions) {
    try {
      return admin.getRegions(name).size() == regions && admin.isTableAvailable(name);
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
