package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.TimingSensitive;
import io.basalt.it.target.Processes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
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
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicated regions across a real network partition: three region servers, each in a network namespace of
 * its own ({@link NetNamespaces}), ZooKeeper, the master and the test's unmodified HBase client in the root
 * namespace. Cutting a server off (its veth down) leaves its process running and its connections open, so the
 * others notice only by missed heartbeats, unlike a SIGKILL whose closed sockets tell them at once.
 *
 * <p>Cut off the primary's server under load: a new primary is elected and published, writers resume, and a
 * probe client inside the cut-off namespace, writing straight to the old primary all along, gets nothing
 * acknowledged from the moment of the cut; after the heal the old primary's member follows the new primary as a
 * secondary, and every write acknowledged to either client is there. Cut off a secondary: writers go on.
 * The primary is cut off {@code -Dbasalt.partition.repetitions} times (3 by default): odd cycles are held until
 * writes resumed and past the ZooKeeper session timeout (the cut-off server also loses its session and closes
 * its regions, the master reopens its members after the heal); even cycles are healed as soon as the new
 * primary is published, inside the session (the old primary's lease comes back and only JE's quorum and its
 * news of the election stand between it and a write).
 */
@Timeout(420)
@TimingSensitive
class PartitionTest {
  /**
   * The client's per-call timeout. A call in flight to a server that was cut off gets no answer and no reset,
   * so this bounds how soon the client gives up on the old primary (HBase's default is 60 s).
   */
  static final int CLIENT_RPC_TIMEOUT_MILLIS = 2_000;
  /** A long cut outlasts the servers' ZooKeeper sessions, so the cut-off server also loses its registration. */
  private static final long LONG_CUT_MILLIS = LocalCluster.SESSION_TIMEOUT_MILLIS + 4_000;
  private static final byte[] SPLIT = Bytes.toBytes("k8");
  private static final byte[] ROW = Bytes.toBytes("k0-probe-region");
  @TempDir Path dir;

  @BeforeAll
  static void needsNetworkNamespaces() {
    Optional<String> why = NetNamespaces.unavailableReason();
    Assumptions.assumeTrue(why.isEmpty(), () -> "PartitionTest skipped: " + why.orElse(""));
  }

  @Test
  void aPrimaryCutOffAcknowledgesNothingAndWritesResumeOnANewPrimary() throws Exception {
    int repetitions = Integer.getInteger("basalt.partition.repetitions", 3);
    try (NetNamespaces net = NetNamespaces.create(3);
         LocalCluster cluster = LocalCluster.inNamespaces(dir, net, 3, LocalCluster.WARMED_UP);
         Connection conn = ConnectionFactory.createConnection(clientConfiguration(cluster));
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "partition_primary");
      List<String> figures = new ArrayList<>();
      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(1_000, 60_000);
        for (int cycle = 1; cycle <= repetitions; cycle++) {
          figures.add(cutThePrimaryOnce(cluster, conn, admin, name, load, cycle, cycle % 2 == 1));
        }
        load.awaitWrites(500, 60_000);
        load.close();
        assertThat(load.verify()).as("acknowledged writes lost (of " + load.acknowledgedWrites() + ")").isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
      figures.forEach(f -> System.out.println("partition: " + f));
    }
  }

  /** One cut of the current primary's server, the heal, and the checks; returns the figures as a line. */
  private String cutThePrimaryOnce(LocalCluster cluster, Connection conn, Admin admin, TableName name, Workload load,
      int cycle, boolean longCut) throws Exception {
    RegionInfo region = admin.getRegions(name).stream()
        .filter(r -> r.getReplicaId() == 0 && r.containsRow(ROW)).findFirst().orElseThrow();
    Probe p = probeThePrimary(cluster, conn, name, region, cycle);
    ServerName old = p.server();
    LocalCluster.Node oldPrimary = cluster.regionServerAt(old);
    String probeLog = p.log();
    Process probe = p.process();
    try {
      load.resetWriteGaps();
      long acked = load.acknowledgedWrites();
      cluster.cut(oldPrimary);
      long cutNanos = System.nanoTime();
      long cutMillis = System.currentTimeMillis();
      System.out.println("partition: cycle " + cycle + ": cut off " + oldPrimary.name() + " (" + old
          + ", primary of the probed region) at " + clock(cutMillis));

      long published = awaitNewPrimary(conn, name, old, cutNanos);
      long resumedGap = -1;
      if (longCut) {
        load.awaitWrites(500, 120_000);
        assertThat(load.acknowledgedWrites()).as("writes resume with the primary's server cut off").isGreaterThan(acked + 400);
        resumedGap = load.longestWriteGapMillis();
        Thread.sleep(Math.max(0, LONG_CUT_MILLIS - (System.nanoTime() - cutNanos) / 1_000_000));
        load.resetWriteGaps();
      }
      long heldMillis = (System.nanoTime() - cutNanos) / 1_000_000;
      cluster.heal(oldPrimary);
      long healMillis = System.currentTimeMillis();
      long healNanos = System.nanoTime();
      System.out.println("partition: cycle " + cycle + ": healed after " + heldMillis + " ms at " + clock(healMillis));

      long rejoined = awaitFollowing(conn, name, oldPrimary, "after-heal-" + cycle, healNanos);
      load.awaitWrites(300, 60_000);
      long healGap = load.longestWriteGapMillis();
      Processes.stop(probe, 5_000);

      List<PartitionProbe.Outcome> outcomes = PartitionProbe.parse(cluster.logOf(probeLog));
      checkProbe(conn, name, outcomes, cutMillis, cycle);
      load.failureLog().stream().limit(20).forEach(f -> System.out.println("partition: failed op " + f));
      String figures = String.format("cycle %d (%s cut, held %d ms): %s; new primary in hbase:meta %d ms after the cut; "
              + "longest writer wait %s; old primary following again %d ms after the heal", cycle,
          longCut ? "long" : "short", heldMillis, breakdown(cluster, region, cutMillis), published,
          longCut ? "across the cut " + resumedGap + " ms, across the heal " + healGap + " ms"
              : "across cut and heal " + healGap + " ms", rejoined);
      System.out.println("partition: " + figures);
      if (longCut) {
        assertThat(resumedGap).as("longest writer wait across the cut of the primary").isLessThan(15_000);
      }
      return figures;
    } finally {
      Processes.stop(probe, 5_000);
    }
  }

  /**
   * What proves the old primary fenced: the probe, which still reaches it, got acknowledgements before the cut
   * (so it could see one) and none from shortly after the cut until the heal; and every write it ever got
   * acknowledged is there now, read through the new primary.
   */
  private static void checkProbe(Connection conn, TableName name, List<PartitionProbe.Outcome> outcomes, long cutMillis,
      int cycle) throws IOException {
    // A commit whose acknowledgements had arrived before the cut may still be answered a moment later.
    long inFlightMillis = 1_000;
    List<PartitionProbe.Outcome> acks = outcomes.stream().filter(PartitionProbe.Outcome::acknowledged).toList();
    assertThat(acks.stream().filter(o -> o.epochMillis() < cutMillis)).as("the probe saw acknowledgements before the cut")
        .isNotEmpty();
    // Until the probe stops, the old primary's member has been seen following the new one after the heal: no
    // acknowledgement at all from shortly after the cut, cut off or healed but not yet told of the election.
    List<PartitionProbe.Outcome> fenceBreaks = acks.stream().filter(o -> o.epochMillis() > cutMillis + inFlightMillis)
        .toList();
    assertThat(fenceBreaks).as("writes the old primary acknowledged after it was cut off").isEmpty();

    Map<String, Integer> refusals = new TreeMap<>();
    long lastAck = Long.MIN_VALUE;
    long firstRefusal = Long.MAX_VALUE;
    for (PartitionProbe.Outcome o : outcomes) {
      if (o.epochMillis() >= cutMillis && !o.acknowledged()) {
        refusals.merge(o.kind() + " " + o.detail().split(" ", 2)[0], 1, Integer::sum);
        firstRefusal = Math.min(firstRefusal, o.epochMillis());
      }
      if (o.acknowledged()) {
        lastAck = Math.max(lastAck, o.epochMillis());
      }
    }
    System.out.println("partition: cycle " + cycle + ": probe of the old primary: " + acks.size() + " acknowledged, the "
        + "last " + (lastAck - cutMillis) + " ms after the cut; first refusal " + (firstRefusal - cutMillis)
        + " ms after the cut; answers from the cut on: " + refusals);

    List<String> missing = new ArrayList<>();
    int unacknowledgedPresent = 0;
    try (Table t = conn.getTable(name)) {
      for (PartitionProbe.Outcome o : outcomes) {
        Result r = t.get(new Get(Bytes.toBytes(o.row())));
        boolean present = o.row().equals(Bytes.toString(r.getValue(Workload.F, Workload.Q)));
        if (o.acknowledged() && !present) {
          missing.add(o.row() + " acknowledged at " + clock(o.epochMillis()));
        } else if (!o.acknowledged() && present) {
          unacknowledgedPresent++;
        }
      }
    }
    System.out.println("partition: cycle " + cycle + ": probe writes not acknowledged but present after the heal: "
        + unacknowledgedPresent);
    assertThat(missing).as("writes the old primary acknowledged, missing after the heal").isEmpty();
  }

  @Test
  void aSecondaryCutOffDoesNotStallWriters() throws Exception {
    try (NetNamespaces net = NetNamespaces.create(3);
         LocalCluster cluster = LocalCluster.inNamespaces(dir, net, 3, LocalCluster.WARMED_UP);
         Connection conn = ConnectionFactory.createConnection(clientConfiguration(cluster));
         Admin admin = conn.getAdmin()) {
      TableName name = createTable(admin, "partition_secondary");
      try (Workload load = new Workload(conn, name, 4, 20).start()) {
        load.awaitWrites(1_000, 60_000);
        LocalCluster.Node secondary = aServerWithoutPrimaries(cluster, conn, name);
        load.resetWriteGaps();
        cluster.cut(secondary);
        long cutNanos = System.nanoTime();
        System.out.println("partition: cut off " + secondary.name() + " (secondaries only) at "
            + clock(System.currentTimeMillis()));
        long acked = load.acknowledgedWrites();
        Thread.sleep(LONG_CUT_MILLIS);
        assertThat(load.acknowledgedWrites()).as("writes go on with a secondary cut off").isGreaterThan(acked + 300);
        long cutGap = load.longestWriteGapMillis();
        load.resetWriteGaps();
        cluster.heal(secondary);
        long rejoined = awaitFollowing(conn, name, secondary, "after-heal", System.nanoTime());
        load.awaitWrites(300, 60_000);
        long healGap = load.longestWriteGapMillis();
        System.out.println("partition: secondary cut off for " + (System.nanoTime() - cutNanos) / 1_000_000
            + " ms: longest writer wait while cut off " + cutGap + " ms; following again " + rejoined
            + " ms after the heal; longest writer wait across the heal " + healGap + " ms");
        load.failureLog().stream().limit(20).forEach(f -> System.out.println("partition: failed op " + f));
        assertThat(cutGap).as("longest writer wait with a secondary cut off").isLessThan(2_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
    }
  }

  /** A region server that holds no primary (there are two regions and three servers), else any secondary. */
  private static LocalCluster.Node aServerWithoutPrimaries(LocalCluster cluster, Connection conn, TableName name)
      throws IOException {
    List<ServerName> primaries = new ArrayList<>();
    try (RegionLocator locator = conn.getRegionLocator(name)) {
      for (HRegionLocation l : locator.getAllRegionLocations()) {
        if (l.getRegion().getReplicaId() == 0) {
          primaries.add(l.getServerName());
        }
      }
    }
    return cluster.regionServers().stream()
        .filter(n -> primaries.stream().noneMatch(p -> cluster.regionServerAt(p) == n)).findFirst()
        .orElseGet(() -> cluster.regionServerAt(copies(conn, name).get(1)));
  }

  private static TableName createTable(Admin admin, String name) throws IOException {
    TableName t = TableName.valueOf(name);
    admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F))
        .build(), new byte[][] {SPLIT});
    return t;
  }

  private static Configuration clientConfiguration(LocalCluster cluster) {
    Configuration conf = cluster.clientConfiguration();
    conf.setInt("hbase.rpc.timeout", CLIENT_RPC_TIMEOUT_MILLIS);
    conf.setInt("hbase.client.start.log.errors.counter", 0); // every retry logged, with its cause
    return conf;
  }

  /** The servers of the probed region's copies as hbase:meta lists them now, the primary first. */
  private static List<ServerName> copies(Connection conn, TableName table) {
    try (RegionLocator locator = conn.getRegionLocator(table)) {
      return locator.getRegionLocations(ROW, true).stream().filter(l -> l != null && l.getServerName() != null)
          .map(HRegionLocation::getServerName).toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Waits until hbase:meta names a primary other than {@code old}; the ms since the cut. */
  private static long awaitNewPrimary(Connection conn, TableName name, ServerName old, long cutNanos)
      throws InterruptedException {
    long deadline = cutNanos + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      List<ServerName> now = copies(conn, name);
      if (!now.isEmpty() && !now.get(0).getAddress().equals(old.getAddress())) {
        return (System.nanoTime() - cutNanos) / 1_000_000;
      }
      assertThat(System.nanoTime()).as("a new primary is elected and published").isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  /**
   * Writes a marker through the primary, then reads it from {@code node}'s copy alone (a TIMELINE get of that
   * replica) until it is there: the member is back and follows the primary. The ms since {@code sinceNanos}.
   */
  private static long awaitFollowing(Connection conn, TableName name, LocalCluster.Node node, String marker,
      long sinceNanos) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    byte[] row = Bytes.toBytes("k0-marker-" + marker);
    try (Table t = conn.getTable(name)) {
      t.put(new Put(row).addColumn(Workload.F, Workload.Q, Bytes.toBytes(marker)));
      String last = "";
      while (true) {
        int replica = replicaOn(conn, name, row, node);
        if (replica > 0) {
          try {
            Result r = t.get(new Get(row).setConsistency(Consistency.TIMELINE).setReplicaId(replica));
            if (marker.equals(Bytes.toString(r.getValue(Workload.F, Workload.Q)))) {
              assertThat(r.isStale()).as("answered by the secondary").isTrue();
              return (System.nanoTime() - sinceNanos) / 1_000_000;
            }
            last = "replica " + replica + " has not got the marker yet";
          } catch (IOException e) {
            last = e.toString().lines().findFirst().orElse("");
          }
        } else {
          last = node.name() + " holds no secondary of the region in hbase:meta (replica " + replica + ")";
        }
        assertThat(System.nanoTime()).as(node.name() + " follows the primary again; last: " + last).isLessThan(deadline);
        Thread.sleep(200);
      }
    }
  }

  /** The replica id hbase:meta gives {@code node}'s copy of the region holding {@code row}, or -1. */
  private static int replicaOn(Connection conn, TableName name, byte[] row, LocalCluster.Node node) throws IOException {
    try (RegionLocator locator = conn.getRegionLocator(name)) {
      for (HRegionLocation l : locator.getRegionLocations(row, true)) {
        if (l != null && l.getServerName() != null && l.getServerName().getHostname().equals(node.host())
            && l.getServerName().getPort() == node.port()) {
          return l.getRegion().getReplicaId();
        }
      }
      return -1;
    }
  }

  /** A probe running beside the primary it writes to. */
  private record Probe(Process process, String log, ServerName server) {}

  /**
   * Starts a probe next to the region's primary and waits until that primary acknowledges its writes. The
   * balancer may hand the primary role to another member meanwhile (it spreads primaries again after a heal):
   * then the probe is stopped and started again next to the new primary (bounded).
   */
  private static Probe probeThePrimary(LocalCluster cluster, Connection conn, TableName name, RegionInfo region,
      int cycle) throws Exception {
    String last = "";
    for (int attempt = 1; attempt <= 4; attempt++) {
      ServerName primary = copies(conn, name).get(0);
      String log = "probe-" + cycle + "-" + attempt;
      Process process = cluster.startBeside(cluster.regionServerAt(primary), PartitionProbe.class.getName(),
          List.of(primary.getHostname(), Integer.toString(primary.getPort()), Bytes.toStringBinary(region.getRegionName()),
              "k0-probe" + cycle + "-" + attempt + "-", "20"), log);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (System.nanoTime() < deadline) {
        List<PartitionProbe.Outcome> outcomes = PartitionProbe.parse(cluster.logOf(log));
        if (outcomes.stream().filter(PartitionProbe.Outcome::acknowledged).count() >= 20
            && outcomes.get(outcomes.size() - 1).acknowledged() && copies(conn, name).get(0).equals(primary)) {
          return new Probe(process, log, primary);
        }
        Thread.sleep(100);
      }
      Processes.stop(process, 5_000);
      last = cluster.logOf(log);
      System.out.println("partition: cycle " + cycle + ": " + primary + " stopped acknowledging the probe before the cut "
          + "(the primary role moved?); probing the primary again");
    }
    throw new AssertionError("the probe gets no steady acknowledgements from the primary; last probe:\n" + last);
  }

  /**
   * Where the failover's time went, from the region servers' logs: when the first surviving member of the region
   * lost its primary (missed heartbeats), and when the new primary was elected and published, in ms after the cut.
   */
  private static String breakdown(LocalCluster cluster, RegionInfo region, long cutMillis) {
    String encoded = region.getEncodedName();
    long noticed = Long.MAX_VALUE;
    long elected = Long.MAX_VALUE;
    long published = Long.MAX_VALUE;
    for (LocalCluster.Node n : cluster.regionServers()) {
      for (String line : cluster.logOf(n.name()).lines().toList()) {
        long at = logMillis(line, cutMillis);
        if (at < cutMillis) {
          continue;
        }
        if (line.contains(" of " + encoded + " is UNKNOWN")) {
          noticed = Math.min(noticed, at);
        } else if (line.contains(" of " + encoded + " is PRIMARY")) {
          elected = Math.min(elected, at);
        } else if (line.contains("is the primary of region " + encoded)) {
          published = Math.min(published, at);
        }
      }
    }
    return "a survivor lost the primary " + since(noticed, cutMillis) + ", new one elected " + since(elected, cutMillis)
        + ", published " + since(published, cutMillis);
  }

  private static String since(long at, long cutMillis) {
    return at == Long.MAX_VALUE ? "(not in the logs)" : (at - cutMillis) + " ms after the cut";
  }

  /** The epoch ms of a child's log line ({@code HH:mm:ss.SSS ...}) on the day of {@code nearMillis}, or MIN_VALUE. */
  private static long logMillis(String line, long nearMillis) {
    if (line.length() < 12 || line.charAt(2) != ':' || line.charAt(8) != '.') {
      return Long.MIN_VALUE;
    }
    try {
      LocalTime t = LocalTime.parse(line.substring(0, 12));
      ZoneId zone = ZoneId.systemDefault();
      return Instant.ofEpochMilli(nearMillis).atZone(zone).toLocalDate().atTime(t).atZone(zone).toInstant().toEpochMilli();
    } catch (java.time.format.DateTimeParseException e) {
      return Long.MIN_VALUE;
    }
  }

  private static LocalTime clock(long epochMillis) {
    return LocalTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneId.systemDefault());
  }
}
