package io.basalt.bench.elasticity;

import io.basalt.server.master.OperationHistory;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * Moves of one large region back and forth between the two servers while a 95/5 YCSB-style load runs on
 * it: the region holds {@code moveSizeMb} of large values plus the small records the load reads and
 * updates; a probe gets one of those records every millisecond. Per move: the master's step times and bytes
 * shipped, the probe's unavailability, and the load's worst second.
 */
final class MoveMeasurement {
  static final List<String> PHASES = List.of("prefetch", "close", "catchUpAndOpen", "publish", "cleanUp");

  /** One move and what the clients saw of it. */
  record Row(int n, String from, String to, long regionDiskBytes, Map<String, Long> phasesMillis,
      long masterUnavailableMillis, long bytesShipped, Probe.Window probe, double loadWorstP99Millis,
      long loadErrors) {}

  /** The moves and the load's seconds over the whole run. */
  record Result(List<Row> moves, List<YcsbLoad.Second> timeline, long timelineStartMillis) {}

  private MoveMeasurement() {}

  static Result run(BenchCluster cluster, Connection conn, Admin admin, Settings s, PrintStream out,
      List<String> notes) throws IOException, InterruptedException {
    TableName name = TableName.valueOf("move");
    admin.createTable(TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(KeySpace.FAMILY)).build());
    KeySpace bulk = new KeySpace("b", ((long) s.moveSizeMb() << 20) / s.bulkValueBytes());
    KeySpace records = new KeySpace("u", 10_000);
    long t = System.nanoTime();
    DataLoader.load(conn, name, bulk, s.bulkValueBytes());
    DataLoader.load(conn, name, records, s.recordBytes());
    out.printf("move: loaded %,d MB in %.1f s%n", s.moveSizeMb(), (System.nanoTime() - t) / 1e9);
    RegionInfo region = admin.getRegions(name).get(0);
    List<Row> rows = new ArrayList<>();
    try (YcsbLoad load = new YcsbLoad(conn, name, records, s.recordBytes(), s.threads(), s.readPercent()).start();
         Probe probe = new Probe(cluster.clientConfiguration(), name, records.row(0), "move").start()) {
      Thread.sleep(3_000);
      for (int n = 1; n <= s.moves(); n++) {
        ServerName from;
        try (RegionLocator locator = conn.getRegionLocator(name)) {
          from = locator.getRegionLocation(region.getStartKey(), true).getServerName();
        }
        ServerName to = admin.getRegionServers().stream().filter(x -> !x.equals(from)).findFirst()
            .orElseThrow(() -> new IOException("no second region server to move to"));
        long disk = BenchCluster.diskBytes(cluster.serverAt(from.getPort()).dataDir());
        long fromNanos = System.nanoTime();
        long fromMillis = System.currentTimeMillis();
        admin.move(region.getEncodedNameAsBytes(), to);
        long after = System.nanoTime();
        probe.awaitServedSince(after, 30_000);
        Thread.sleep(1_200); // the load's sampler closes the second the move ended in
        long toMillis = System.currentTimeMillis();
        OperationHistory.Operation op = cluster.history().recent().stream()
            .filter(o -> o.kind().equals("move") && o.region().equals(region.getRegionNameAsString())
                && o.startedAtMillis() >= fromMillis - 1_000)
            .findFirst().orElseThrow(() -> new IOException("the master recorded no move of " + region.getEncodedName()));
        double worstP99 = 0;
        long errors = 0;
        for (YcsbLoad.Second sec : load.seconds()) {
          if (sec.epochMillis() >= fromMillis && sec.epochMillis() - 1_000 <= toMillis) {
            worstP99 = Math.max(worstP99, sec.p99Millis());
            errors += sec.errors();
          }
        }
        Row row = new Row(n, from.getHostAndPort(), to.getHostAndPort(), disk, op.phasesMillis(), op.unavailableMillis(),
            op.bytes(), probe.window(fromNanos, System.nanoTime()), worstP99, errors);
        rows.add(row);
        out.printf("move %d %s -> %s: %s; master: %d ms unavailable, %,d bytes shipped; probe: %.1f ms refused->served, "
            + "max gap %.1f ms; load: worst p99 %.1f ms, %d errors%n", n, row.from(), row.to(), op.phasesMillis(),
            op.unavailableMillis(), op.bytes(), row.probe().refusedToServedMillis(), row.probe().maxGapMillis(),
            worstP99, errors);
        Thread.sleep(3_000);
      }
      load.close();
      Result result = new Result(rows, load.seconds(), load.startEpochMillis());
      Tables.drop(admin, name, out, notes);
      return result;
    }
  }
}
