package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.TimingSensitive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Moving one copy of a replicated region (4 region servers, 3 copies per region) to the server that has
 * none, under load, through the stock client's {@code Admin.move}: a new member joins the region's replica
 * group empty and is filled by the group, becomes primary, and the old primary's copy is deleted from the
 * group and from its disk. No acknowledged write is lost; the master dying between two steps finishes or
 * undoes the change, as its ZooKeeper record says.
 */
@Timeout(300)
@TimingSensitive
class MemberMoveTest {
  @TempDir Path dir;

  @Test
  void movingTheRegionToAServerWithoutACopyMovesThePrimarysCopyThere() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 4, 3, LocalCluster.WARMED_UP);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "member_move");
      RegionInfo region = admin.getRegions(name).stream().filter(r -> r.getReplicaId() == 0).findFirst().orElseThrow();
      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(2_000, 60_000);
        List<ServerName> before = copies(conn, name);
        ServerName target = withoutCopy(admin, before);
        ServerName oldPrimary = before.get(0);
        load.resetWriteGaps();
        long start = System.nanoTime();
        admin.move(region.getEncodedNameAsBytes(), target);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        long acked = load.acknowledgedWrites();
        load.awaitWrites(1_000, 60_000);
        long gap = load.longestWriteGapMillis();
        System.out.println("member move: " + oldPrimary.getAddress() + " -> " + target.getAddress() + " took "
            + tookMillis + " ms with " + acked + " rows written; longest writer wait during it: " + gap + " ms");
        load.failureLog().forEach(f -> System.out.println("member move: failed op " + f));

        List<ServerName> after = copies(conn, name);
        assertThat(after).as("3 copies in meta").hasSize(3);
        assertThat(after.get(0).getAddress()).as("the new copy is primary").isEqualTo(target.getAddress());
        assertThat(addresses(after)).as("the old primary's copy is gone, the others stay")
            .doesNotContain(oldPrimary.getAddress().toString())
            .containsAll(addresses(before.subList(1, 3)));
        assertThat(regionDir(cluster, oldPrimary, region)).as("the old copy's directory").doesNotExist();
        assertThat(regionDir(cluster, target, region)).as("the new copy's directory").isDirectory();
        assertThat(gap).as("no writer waits more than 5 s between two acknowledged writes").isLessThan(5_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }

  /** Where the outcome turns: undone before the new member's join is recorded, finished after it. */
  @ParameterizedTest(name = "the master dies at {0}")
  @CsvSource({
      "master.member.recorded.started, undone",
      "master.member.recorded.joined, finished",
  })
  void aMasterCrashBetweenTwoStepsFinishesOrUndoesTheChange(String point, String ending) throws Exception {
    crashAt(point, ending);
  }

  /** Every other step of the master's (-Dbasalt.it.allCrashPoints=true). */
  @ParameterizedTest(name = "the master dies at {0}")
  @EnabledIfSystemProperty(named = "basalt.it.allCrashPoints", matches = "true")
  @CsvSource({
      "master.member.PublishMembers, undone",
      "master.member.JoinMember, undone",
      "master.member.TransferPrimary, finished",
      "master.member.CloseMember, finished",
      "master.member.DeleteMember, finished",
      "master.member.DropMemberFiles, finished",
  })
  void aMasterCrashAtAnyOtherStep(String point, String ending) throws Exception {
    crashAt(point, ending);
  }

  private void crashAt(String point, String ending) throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 4, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "member_crash");
      RegionInfo region = admin.getRegions(name).stream().filter(r -> r.getReplicaId() == 0).findFirst().orElseThrow();
      LocalCluster.Node master = cluster.masters().get(0);
      cluster.stop(master);
      master.crashAt(point);
      cluster.start(master);
      cluster.awaitActiveMaster();
      try (Workload load = new Workload(conn, name, 3, 20).start()) {
        load.awaitWrites(500, 90_000);
        List<ServerName> before = copies(conn, name);
        ServerName target = withoutCopy(admin, before);
        try (Connection c = ConnectionFactory.createConnection(cluster.impatientClientConfiguration());
             Admin a = c.getAdmin()) {
          a.move(region.getEncodedNameAsBytes(), target);
        } catch (Exception expected) {
          System.out.println(point + ": move call ended with " + expected.toString().lines().findFirst().orElse(""));
        }
        assertThat(master.awaitExit(90)).as("the master should have halted at %s", point).isTrue();
        master.clearJvmFlags();
        cluster.start(master);
        Set<String> expected = ending.equals("finished")
            ? Set.of(target.getAddress().toString(), before.get(1).getAddress().toString(),
                before.get(2).getAddress().toString())
            : Set.copyOf(addresses(before));
        ServerName gone = ending.equals("finished") ? before.get(0) : target;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        Set<String> now = Set.of();
        while (System.nanoTime() < deadline) {
          try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
            now = Set.copyOf(addresses(copies(fresh, name)));
          } catch (IOException e) {
            now = Set.of();
          }
          // The directory of the copy that is not a member goes at the end of finishing or undoing.
          if (now.equals(expected) && !Files.exists(regionDir(cluster, gone, region))) {
            break;
          }
          Thread.sleep(300);
        }
        assertThat(now).as("the copies once the change is %s", ending).isEqualTo(expected);
        assertThat(regionDir(cluster, gone, region)).as("the directory of the copy that is not a member")
            .doesNotExist();
        load.awaitWrites(500, 90_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }

  private static TableName createTable(Admin admin, String table) throws IOException {
    TableName t = TableName.valueOf(table);
    admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F))
        .build());
    return t;
  }

  /** The servers of every copy of the table's only region: the primary first. */
  private static List<ServerName> copies(Connection conn, TableName table) throws IOException {
    try (RegionLocator locator = conn.getRegionLocator(table)) {
      return locator.getRegionLocations(Bytes.toBytes("a"), true).stream().map(HRegionLocation::getServerName).toList();
    }
  }

  private static ServerName withoutCopy(Admin admin, List<ServerName> copies) throws IOException {
    Set<String> with = Set.copyOf(addresses(copies));
    Optional<ServerName> s = admin.getRegionServers().stream().filter(n -> !with.contains(n.getAddress().toString()))
        .findFirst();
    return s.orElseThrow();
  }

  private static List<String> addresses(List<ServerName> servers) {
    return servers.stream().map(s -> s.getAddress().toString()).collect(Collectors.toList());
  }

  private static Path regionDir(LocalCluster cluster, ServerName server, RegionInfo region) {
    return cluster.regionServerAt(server).dataDir.resolve("regions").resolve(region.getEncodedName());
  }
}
