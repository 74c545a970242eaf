package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.Processes;
import io.basalt.storage.testing.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.net.Address;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-replication on 4 region servers with 3 copies of each region, under load through the unmodified client:
 * a server killed and kept down longer than {@code basalt.replication.rereplicate.after} (3 s here) has its
 * members rebuilt on the other servers until every region has 3 live copies again, and when it comes back
 * its leftover copies are dropped; a server decommissioned with offload ends with no members. No
 * acknowledged write is lost. Needs {@code Master.replaceMember} (the membership-change protocol).
 */
@Timeout(600)
class RereplicationTest {
  private static final int REGIONS = 6;
  @TempDir Path dir;
  private int infoPort;

  private LocalCluster cluster() throws IOException, InterruptedException {
    infoPort = FreePorts.take(1)[0];
    return new LocalCluster(dir, 1, 4, List.of(), List.of("--replication-factor", "3", "--rereplicate-after-ms", "3000",
        "--info-port", Integer.toString(infoPort)));
  }

  private static TableName createTable(Admin admin, String name) throws IOException {
    TableName t = TableName.valueOf(name);
    byte[][] splits = new byte[REGIONS - 1][];
    for (int i = 1; i < REGIONS; i++) {
      splits[i - 1] = Bytes.toBytes(String.format("k%x", i * 2));
    }
    admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F))
        .build(), splits);
    return t;
  }

  /** The servers of every copy of each region (by encoded name of its default replica), as meta lists them. */
  private static Map<String, List<ServerName>> copies(Connection conn, TableName table) throws IOException {
    Map<String, List<ServerName>> out = new HashMap<>();
    try (RegionLocator locator = conn.getRegionLocator(table)) {
      locator.clearRegionLocationCache();
      for (HRegionLocation l : locator.getAllRegionLocations()) {
        if (l == null) {
          continue;
        }
        String region = RegionReplicaUtil.getRegionInfoForDefaultReplica(l.getRegion()).getEncodedName();
        List<ServerName> on = out.computeIfAbsent(region, k -> new ArrayList<>());
        if (l.getServerName() != null) {
          on.add(l.getServerName());
        }
      }
    }
    return out;
  }

  /** Waits until every region has 3 copies on distinct live servers, none at {@code gone}; returns how long it took. */
  private static long awaitThreeLiveCopiesAwayFrom(Connection conn, Admin admin, TableName table, Address gone,
      int seconds) throws Exception {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      Set<ServerName> live = new HashSet<>(admin.getRegionServers());
      Map<String, List<ServerName>> copies = copies(conn, table);
      boolean done = copies.size() == REGIONS && copies.values().stream().allMatch(on -> on.size() == 3
          && on.stream().map(ServerName::getAddress).distinct().count() == 3 && live.containsAll(on)
          && on.stream().noneMatch(s -> s.getAddress().equals(gone)));
      if (done) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      }
      assertThat(System.nanoTime()).as("every region regains 3 live copies away from %s: %s", gone, copies)
          .isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  private String metric(String name) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + infoPort + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    return r.body().lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{")).findFirst()
        .map(l -> l.substring(l.lastIndexOf(' ') + 1)).orElse("absent");
  }

  private void awaitMetric(String name, String expected, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!expected.equals(metric(name))) {
      assertThat(System.nanoTime()).as("%s reaches %s within %d s (now %s)", name, expected, seconds, metric(name))
          .isLessThan(deadline);
      Thread.sleep(250);
    }
  }

  private static Set<String> regionDirectories(LocalCluster.Node n) throws IOException {
    Path regions = n.dataDir.resolve("regions");
    if (!Files.isDirectory(regions)) {
      return Set.of();
    }
    try (Stream<Path> dirs = Files.list(regions)) {
      return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
    }
  }

  @Test
  void aServerKeptDownHasItsMembersRebuiltAndDropsItsLeftoversWhenItReturns() throws Exception {
    try (LocalCluster cluster = cluster();
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "rereplicated");
      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(1_000, 60_000);
        ServerName victim = copies(conn, name).values().iterator().next().get(1);
        LocalCluster.Node node = cluster.regionServerAt(victim);
        Set<String> heldBefore = regionDirectories(node);
        assertThat(heldBefore).as("the victim holds copies").isNotEmpty();
        System.out.println("rereplication: SIGKILL of " + node.name + " holding " + heldBefore.size() + " copies at "
            + java.time.LocalTime.now());
        cluster.kill(node);
        long tookMillis = awaitThreeLiveCopiesAwayFrom(conn, admin, name, victim.getAddress(), 180);
        System.out.println("rereplication: every region had 3 live copies again " + tookMillis + " ms after the kill");
        // The gauge is as of the repair chore's last plan, which may predate the last rebuild's publication.
        awaitMetric("basalt_master_members_rebuilding", "0.0", 30);
        load.awaitWrites(1_000, 60_000);

        // It comes back: what it held was rebuilt elsewhere, so those directories go.
        cluster.start(node);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
          Set<String> nowListed = new HashSet<>();
          copies(conn, name).forEach((region, on) -> {
            if (on.stream().anyMatch(s -> s.getAddress().equals(victim.getAddress()))) {
              nowListed.add(region);
            }
          });
          Set<String> leftovers = new HashSet<>(regionDirectories(node));
          leftovers.removeAll(nowListed);
          if (leftovers.isEmpty()) {
            break;
          }
          assertThat(System.nanoTime()).as("leftover copies dropped on %s: %s", node.name, leftovers).isLessThan(deadline);
          Thread.sleep(500);
        }
        load.awaitWrites(1_000, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }

  @Test
  void aServerDecommissionedWithOffloadEndsWithNoMembers() throws Exception {
    try (LocalCluster cluster = cluster();
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "offloaded");
      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(1_000, 60_000);
        ServerName s = copies(conn, name).values().iterator().next().get(0);
        admin.decommissionRegionServers(List.of(s), true);
        assertThat(admin.listDecommissionedRegionServers()).extracting(ServerName::getAddress).containsExactly(s.getAddress());
        assertThat(metric("basalt_master_servers_decommissioned")).isEqualTo("1.0");
        long tookMillis = awaitThreeLiveCopiesAwayFrom(conn, admin, name, s.getAddress(), 180);
        System.out.println("rereplication: a decommissioned server was emptied in " + tookMillis + " ms");
        assertThat(cluster.regionServerAt(s).alive()).as("decommissioning does not stop the server").isTrue();

        admin.recommissionRegionServer(s, List.of());
        assertThat(admin.listDecommissionedRegionServers()).isEmpty();
        assertThat(metric("basalt_master_servers_decommissioned")).isEqualTo("0.0");
        load.awaitWrites(1_000, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }
}
