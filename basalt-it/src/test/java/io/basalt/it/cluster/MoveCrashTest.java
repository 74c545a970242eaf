package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The master, the source or the target dies (as with kill -9) at each step of a move, under a 95/5 load;
 * after the restart exactly one server serves the region (the source if the move was undone, the target if
 * it was finished, as its ZooKeeper record says) and every acknowledged write is read back.
 */
@Timeout(300)
class MoveCrashTest {
  @TempDir Path dir;

  /**
   * The last point before the turn and the first after it, and the region servers' own steps: run by default
   * (MoveProtocolTest injects a crash at every point, and every pair, against a simulated cluster).
   */
  @ParameterizedTest(name = "{0} dies at {1}")
  @CsvSource({
      "master, master.move.recorded.prefetched, source",
      "master, master.move.recorded.opened, target",
      "source, regionserver.move.closed, source",
      "target, regionserver.move.prefetched, source",
  })
  void crashAtTheTurningSteps(String role, String point, String owner) throws Exception {
    crashAt(role, point, owner);
  }

  /** Every other step of the master's (-Dbasalt.it.allCrashPoints=true; about 30 s each). */
  @ParameterizedTest(name = "{0} dies at {1}")
  @EnabledIfSystemProperty(named = "basalt.it.allCrashPoints", matches = "true")
  @CsvSource({
      "master, master.move.recorded.started, source",
      "master, master.move.Open, source",
      "master, master.move.ForgetRegion, target",
      "master, master.move.SetRegionState, source",
      "master, master.move.PreClose, source",
      "master, master.move.PreOpen, source",
      "master, master.move.Close, source",
      "master, master.move.PublishMove, target",
      "master, master.move.OpenRegion, target",
  })
  void crashAtEveryOtherStep(String role, String point, String owner) throws Exception {
    crashAt(role, point, owner);
  }

  private void crashAt(String role, String point, String owner) throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 2);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("crash_move");
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build());
      RegionInfo region = admin.getRegions(name).get(0);
      int sourcePort = location(conn, name);
      LocalCluster.Node source = cluster.regionServers().stream().filter(n -> n.port() == sourcePort).findFirst().orElseThrow();
      LocalCluster.Node target = cluster.regionServers().stream().filter(n -> n != source).findFirst().orElseThrow();
      LocalCluster.Node victim = switch (role) {
        case "master" -> cluster.masters().get(0);
        case "source" -> source;
        default -> target;
      };
      cluster.stop(victim);
      victim.crashAt(point);
      cluster.start(victim);
      if (role.equals("master")) {
        cluster.awaitActiveMaster();
      } else {
        cluster.awaitRegisteredRegionServers(2);
      }

      try (Workload load = new Workload(conn, name, 3, 95).start()) {
        load.awaitWrites(300, 90_000);
        try (Connection c = ConnectionFactory.createConnection(cluster.impatientClientConfiguration());
             Admin a = c.getAdmin()) {
          a.move(region.getEncodedNameAsBytes(), listed(a, target.port()));
        } catch (Exception expected) {
          System.out.println(point + ": move call ended with " + expected);
        }
        assertThat(victim.awaitExit(60)).as("%s should have halted at %s", role, point).isTrue();
        victim.clearJvmFlags();
        cluster.start(victim);
        int expectedPort = owner.equals("source") ? source.port() : target.port();
        try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
          while (location(fresh, name) != expectedPort) {
            assertThat(System.nanoTime()).as("region served by the %s after the restart", owner).isLessThan(deadline);
            Thread.sleep(200);
          }
        }
        load.awaitWrites(300, 90_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }

  /** The region server at {@code port} once the master lists it (a restarted one registers a moment later). */
  private static ServerName listed(Admin admin, int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      Optional<ServerName> s = admin.getRegionServers().stream().filter(n -> n.getPort() == port).findFirst();
      if (s.isPresent()) {
        return s.get();
      }
      assertThat(System.nanoTime()).as("region server on port %d listed by the master", port).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private static int location(Connection conn, TableName name) {
    try (RegionLocator locator = conn.getRegionLocator(name)) {
      return locator.getAllRegionLocations().get(0).getPort();
    } catch (Exception e) {
      return -1;
    }
  }
}
