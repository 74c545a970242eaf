package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.TimingSensitive;
import io.basalt.server.rpc.RemoteException;
import io.basalt.server.rpc.RpcClient;
import io.basalt.storage.replication.ReplicaTimings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
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
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.shaded.protobuf.RequestConverter;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicated regions on real processes: every region a replica group of 3 members on 3 region servers.
 * A SIGKILL of a primary's server under load loses no acknowledged write and stalls writers briefly; with
 * two of three members down writes are refused while the survivor answers TIMELINE reads, marked stale; a
 * server whose disk was wiped comes back empty and is refilled from the others; a primary paused (SIGSTOP)
 * until its group elected another refuses writes when it wakes, and loses none it acknowledges later.
 */
@Timeout(420)
@TimingSensitive
class ReplicationTest {
  private static final byte[] SPLIT = Bytes.toBytes("k8");
  @TempDir Path dir;

  /** Creates the table once the master sees all 3 servers: a region placed earlier would get fewer copies. */
  private static TableName createTable(Admin admin, String name) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (admin.getRegionServers().size() < 3) {
      assertThat(System.nanoTime()).as("the master sees 3 region servers").isLessThan(deadline);
      Thread.sleep(100);
    }
    TableName t = TableName.valueOf(name);
    admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F))
        .build(), new byte[][] {SPLIT});
    return t;
  }

  /** The servers of every copy of the region holding {@code row}: the primary first. */
  private static List<ServerName> copies(Connection conn, TableName table, byte[] row) throws IOException {
    try (RegionLocator locator = conn.getRegionLocator(table)) {
      return locator.getRegionLocations(row, true).stream().map(HRegionLocation::getServerName).toList();
    }
  }

  @Test
  void killingThePrimarysServerUnderLoadLosesNothingAndWritesResumeQuickly() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3, LocalCluster.WARMED_UP);
         Connection conn = ConnectionFactory.createConnection(loggingRetries(cluster.clientConfiguration()));
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "replicated_kill");
      List<ServerName> copies = copies(conn, name, Bytes.toBytes("a"));
      assertThat(copies).hasSize(3);
      assertThat(Set.copyOf(copies)).as("each copy on its own server").hasSize(3);
      assertThat(admin.getRegions(name)).as("2 regions x 3 replicas, as HBase lists replicas").hasSize(6);

      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(1_000, 60_000);
        LocalCluster.Node primary = cluster.regionServerAt(copies.get(0));
        load.resetWriteGaps();
        System.out.println("replication: SIGKILL of " + primary.name + " (primary of the first region) at "
            + java.time.LocalTime.now());
        cluster.kill(primary);
        long acked = load.acknowledgedWrites();
        load.awaitWrites(1_000, 120_000);
        assertThat(load.acknowledgedWrites()).as("writes resume with the primary's server gone").isGreaterThan(acked + 500);
        long gap = load.longestWriteGapMillis();
        System.out.println("replication: longest writer wait across a primary SIGKILL: " + gap + " ms");
        load.failureLog().forEach(f -> System.out.println("replication: failed op " + f));
        assertThat(gap).as("no writer waits more than 5 s between two acknowledged writes").isLessThan(5_000);
        assertThat(copies(conn, name, Bytes.toBytes("a")).get(0)).as("a new primary is published")
            .isNotEqualTo(copies.get(0));

        cluster.start(primary);
        load.awaitWrites(1_000, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }

  /** The client logs every retry (with its cause), so a long wait can be explained from the test's output. */
  private static Configuration loggingRetries(Configuration conf) {
    conf.setInt("hbase.client.start.log.errors.counter", 0);
    return conf;
  }

  @Test
  void twoOfThreeDownRefuseWritesWhileTheSurvivorServesStaleReads() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "replicated_minority");
      byte[] row = Bytes.toBytes("a-row");
      try (Table t = conn.getTable(name)) {
        t.put(new Put(row).addColumn(Workload.F, Workload.Q, Bytes.toBytes("v1")));
      }
      List<ServerName> copies = copies(conn, name, row);
      LocalCluster.Node survivor = cluster.regionServerAt(copies.get(2));
      for (ServerName s : copies.subList(0, 2)) {
        cluster.kill(cluster.regionServerAt(s));
      }

      Configuration impatient = cluster.clientConfiguration();
      impatient.setInt("hbase.client.retries.number", 3);
      impatient.setInt("hbase.client.operation.timeout", 15_000);
      try (Connection c = ConnectionFactory.createConnection(impatient); Table t = c.getTable(name)) {
        boolean refused = false;
        try {
          t.put(new Put(row).addColumn(Workload.F, Workload.Q, Bytes.toBytes("v2")));
        } catch (IOException expected) {
          refused = true;
        }
        assertThat(refused).as("a write without a majority is refused").isTrue();
        Result stale = timelineGet(t, row, 30);
        assertThat(Bytes.toString(stale.getValue(Workload.F, Workload.Q))).isEqualTo("v1");
        assertThat(stale.isStale()).as("answered by a secondary").isTrue();
      }
      assertThat(survivor.alive()).isTrue();

      for (ServerName s : copies.subList(0, 2)) {
        cluster.start(cluster.regionServerAt(s));
      }
      try (Table t = conn.getTable(name)) {
        t.put(new Put(row).addColumn(Workload.F, Workload.Q, Bytes.toBytes("v3")));
        assertThat(Bytes.toString(t.get(new Get(row)).getValue(Workload.F, Workload.Q))).isEqualTo("v3");
      }
    }
  }

  /**
   * SIGSTOP of the primary's server under load until its group published another primary, then SIGCONT. On
   * waking, its JE member may still call itself primary (and think it feeds secondaries that left it) until it
   * reads the newer election's result: the server's pause monitor voids its lease for a quiet period, so every
   * write sent straight to it meanwhile is refused. What it acknowledges afterwards, it acknowledges as its
   * group's primary with a majority (re-elected), and that is kept.
   */
  @Test
  void aPausedPrimaryRefusesWritesOnWakingAndKeepsEveryWriteItAcknowledges() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin();
         RpcClient rpc = new RpcClient("replicated-fencing-test", 5_000)) {
      TableName name = createTable(admin, "replicated_fencing");
      byte[] row = Bytes.toBytes("a-row");
      RegionInfo region = admin.getRegions(name).stream()
          .filter(r -> r.getReplicaId() == 0 && r.containsRow(row)).findFirst().orElseThrow();
      List<String> acknowledged = new ArrayList<>();
      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(1_000, 60_000);
        ServerName old = copies(conn, name, row).get(0);
        LocalCluster.Node paused = cluster.regionServerAt(old);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", old.getPort());
        cluster.signal(paused, "STOP");
        long stopped = System.nanoTime();
        long deadline = stopped + TimeUnit.SECONDS.toNanos(60);
        while (copies(conn, name, row).get(0).getPort() == old.getPort()) {
          assertThat(System.nanoTime()).as("a new primary is elected and published").isLessThan(deadline);
          Thread.sleep(100);
        }
        System.out.println("replication: a new primary was published " + (System.nanoTime() - stopped) / 1_000_000
            + " ms after SIGSTOP of the old one's server (noticed by missed heartbeats)");
        long woke = System.nanoTime(); // before the signal: the server cannot run earlier than this
        cluster.signal(paused, "CONT");
        // Straight to the old primary, no client retries or redirects.
        Map<String, Integer> refusals = new TreeMap<>();
        int sent = 0;
        while (System.nanoTime() - woke < TimeUnit.SECONDS.toNanos(5)) {
          String r = "after-wake-" + sent++;
          try {
            rawWrite(rpc, address, region, r);
            long afterMillis = (System.nanoTime() - woke) / 1_000_000;
            assertThat(afterMillis).as("the old primary acknowledged %s %d ms after it woke, inside its quiet period",
                r, afterMillis).isGreaterThanOrEqualTo(ReplicaTimings.RESULT_REBROADCAST.toMillis());
            acknowledged.add(r);
          } catch (RemoteException expected) {
            refusals.merge(expected.className(), 1, Integer::sum);
          }
          Thread.sleep(50);
        }
        System.out.println("replication: the woken old primary refused " + refusals + " and acknowledged "
            + acknowledged.size() + " of " + sent + " writes sent straight to it in 5 s");
        assertThat(refusals).as("its first write after waking is refused").isNotEmpty();
        assertThat(acknowledged).doesNotContain("after-wake-0");
        load.awaitWrites(1_000, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
      try (Table t = conn.getTable(name)) {
        for (String r : acknowledged) {
          assertThat(t.exists(new Get(Bytes.toBytes(r)))).as("acknowledged write %s is kept", r).isTrue();
        }
      }
    }
  }

  /** One Put sent straight to a server, bypassing the client's retries and redirects. */
  private static void rawWrite(RpcClient rpc, InetSocketAddress address, RegionInfo region, String row)
      throws Exception {
    MutateRequest request = RequestConverter.buildMutateRequest(region.getRegionName(),
        new Put(Bytes.toBytes(row)).addColumn(Workload.F, Workload.Q, Bytes.toBytes(row)));
    rpc.call(address, "ClientService", "Mutate", request, MutateResponse.getDefaultInstance(), 5_000);
  }

  @Test
  void movesAndBalancingHandThePrimaryRoleBetweenMembers() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 4, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("replicated_moves");
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build(),
          new byte[][] {Bytes.toBytes("k4"), Bytes.toBytes("k8"), Bytes.toBytes("kc")});
      List<RegionInfo> regions = admin.getRegions(name).stream().filter(r -> r.getReplicaId() == 0).toList();
      assertThat(regions).hasSize(4);
      try (Workload load = new Workload(conn, name, 2, 20).start()) {
        load.awaitWrites(300, 60_000);
        // Every primary onto one server: a member already there takes the primary role (nothing copied); a
        // region without a copy there moves its primary's copy there (a member change).
        ServerName target = copies(conn, name, regions.get(0).getStartKey()).get(1);
        int moved = 0;
        for (RegionInfo r : regions) {
          List<ServerName> copies = copies(conn, name, r.getStartKey());
          boolean hasCopy = copies.stream().anyMatch(s -> s.getAddress().equals(target.getAddress()));
          admin.move(r.getEncodedNameAsBytes(), target);
          List<ServerName> after = copies(conn, name, r.getStartKey());
          assertThat(after.get(0).getAddress()).isEqualTo(target.getAddress());
          assertThat(after).as("still 3 copies").hasSize(3);
          if (!hasCopy) {
            assertThat(after.stream().map(ServerName::getAddress)).doesNotContain(copies.get(0).getAddress());
          }
          moved++;
        }
        assertThat(moved).isPositive();

        assertThat(admin.balance()).isTrue();
        java.util.Map<java.net.InetSocketAddress, Integer> primaries = new java.util.HashMap<>();
        for (RegionInfo r : regions) {
          ServerName p = copies(conn, name, r.getStartKey()).get(0);
          primaries.merge(new java.net.InetSocketAddress(p.getHostname(), p.getPort()), 1, Integer::sum);
        }
        System.out.println("replication: primaries per server after balancing: " + primaries.values());
        assertThat(java.util.Collections.max(primaries.values())).as("primaries spread: " + primaries).isLessThanOrEqualTo(2);
        load.awaitWrites(300, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
      }
    }
  }

  /** A TIMELINE get, retried while the survivor is still finding out it has no primary (bounded). */
  private static Result timelineGet(Table t, byte[] row, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      try {
        return t.get(new Get(row).setConsistency(Consistency.TIMELINE));
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }

  @Test
  void aServerWhoseDiskWasWipedIsRefilledAndNothingIsLost() throws Exception {
    try (LocalCluster cluster = LocalCluster.replicated(dir, 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "replicated_wipe");
      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(1_000, 60_000);
        // Lose each server's disk in turn: each time the other two hold every acknowledged write and refill it.
        for (LocalCluster.Node victim : cluster.regionServers()) {
          cluster.kill(victim);
          cluster.wipe(victim);
          load.awaitWrites(300, 60_000);
          cluster.start(victim);
          awaitMembersOpen(cluster, victim, 2, 120);
          load.awaitWrites(300, 60_000);
        }
        load.close();
        List<String> lost = load.verify();
        assertThat(lost).as("acknowledged writes lost after three wiped disks (of " + load.acknowledgedWrites() + ")")
            .isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }

  /** Waits until the restarted server says it opened {@code members} members (its log, bounded). */
  private static void awaitMembersOpen(LocalCluster cluster, LocalCluster.Node n, int members, int seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      String log = cluster.logTail(n);
      long opened = log.lines().filter(l -> l.contains("opened member")).collect(Collectors.counting());
      if (opened >= members) {
        return;
      }
      assertThat(System.nanoTime()).as(n + " opens its members:\n" + log).isLessThan(deadline);
      Thread.sleep(200);
    }
  }
}
