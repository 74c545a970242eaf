package io.basalt.bench.elasticity;

import io.basalt.server.master.OperationHistory;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * The paper's Fig. 9: a table of {@code regions} regions spread over two servers serves a 95/5 YCSB-style
 * load; after a warm-up a third region server is started, and the balancer (on the join, one move every
 * balance pause) gives it a third of the regions. The load's throughput and p99 are kept per second, with
 * the times the server started, registered and each move ran.
 */
final class GrowthMeasurement {
  /** A moment to mark on the chart: seconds since the load started. */
  record Event(double atSeconds, String what, long durationMillis, long unavailableMillis, long bytes) {}

  record Result(List<YcsbLoad.Second> seconds, List<Event> events, Map<String, Integer> regionsBefore,
      Map<String, Integer> regionsAfter) {}

  private GrowthMeasurement() {}

  static Result run(BenchCluster cluster, Connection conn, Admin admin, Settings s, PrintStream out)
      throws IOException, InterruptedException {
    TableName name = TableName.valueOf("usertable");
    KeySpace keys = new KeySpace("user", s.records());
    admin.createTable(TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(KeySpace.FAMILY)).build(), keys.splitKeys(s.regions()));
    long t = System.nanoTime();
    DataLoader.load(conn, name, keys, s.recordBytes());
    out.printf("growth: loaded %,d records of %,d bytes into %d regions in %.1f s%n", s.records(), s.recordBytes(),
        s.regions(), (System.nanoTime() - t) / 1e9);
    admin.balancerSwitch(true, true);
    admin.balance();
    Map<String, Integer> before = regionsPerServer(conn, name);
    out.println("growth: regions per server before: " + before);
    List<Event> events = new ArrayList<>();
    try (YcsbLoad load = new YcsbLoad(conn, name, keys, s.recordBytes(), s.threads(), s.readPercent()).start()) {
      long loadStart = load.startEpochMillis();
      Thread.sleep(s.growthWarmupSeconds() * 1_000L);
      long startedAt = System.currentTimeMillis();
      cluster.addRegionServer();
      events.add(new Event((startedAt - loadStart) / 1e3, "third server started", 0, 0, 0));
      cluster.awaitLiveServers(3);
      long registeredAt = System.currentTimeMillis();
      events.add(new Event((registeredAt - loadStart) / 1e3, "third server registered", 0, 0, 0));
      out.printf("growth: third region server started at %.1f s, registered at %.1f s%n", (startedAt - loadStart) / 1e3,
          (registeredAt - loadStart) / 1e3);
      // Runs at least growthSeconds, and on (up to 2 minutes more) until the balancer is done and 5 s have
      // passed since, so a slow start of the new server cannot cut the moves off the chart.
      long end = loadStart + s.growthSeconds() * 1_000L;
      long limit = end + 120_000;
      long balancedSince = -1;
      while (System.currentTimeMillis() < limit) {
        long now = System.currentTimeMillis();
        boolean balancedNow = now - registeredAt > 5_000 && cluster.balanced();
        balancedSince = balancedNow ? (balancedSince < 0 ? now : balancedSince) : -1;
        if (now >= end && balancedSince >= 0 && now - balancedSince >= 5_000) {
          break;
        }
        Thread.sleep(250);
      }
      load.close();
      List<OperationHistory.Operation> moves = cluster.history().recent().stream()
          .filter(o -> o.kind().equals("move") && o.startedAtMillis() >= startedAt)
          .sorted(Comparator.comparingLong(OperationHistory.Operation::startedAtMillis)).toList();
      for (OperationHistory.Operation m : moves) {
        events.add(new Event((m.startedAtMillis() - loadStart) / 1e3, "move " + shortName(m.region()), m.totalMillis(),
            m.unavailableMillis(), m.bytes()));
        out.printf("growth: move of %s at %.1f s: %s, %d ms unavailable, %,d bytes%n", shortName(m.region()),
            (m.startedAtMillis() - loadStart) / 1e3, m.phasesMillis(), m.unavailableMillis(), m.bytes());
      }
      Map<String, Integer> after = regionsPerServer(conn, name);
      out.println("growth: regions per server after: " + after);
      return new Result(load.seconds(), events, before, after);
    }
  }

  /** The encoded part of a region name (the hash between the last two dots). */
  static String shortName(String regionName) {
    String[] parts = regionName.split("\\.");
    return parts.length >= 2 ? parts[parts.length - 1] : regionName;
  }

  private static Map<String, Integer> regionsPerServer(Connection conn, TableName name) throws IOException {
    Map<String, Integer> out = new TreeMap<>();
    try (RegionLocator locator = conn.getRegionLocator(name)) {
      locator.clearRegionLocationCache();
      for (HRegionLocation l : locator.getAllRegionLocations()) {
        out.merge(l.getServerName().getHostAndPort(), 1, Integer::sum);
      }
    }
    return out;
  }
}
