package io.basalt.bench.elasticity;

import io.basalt.server.master.OperationHistory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * The paper's Fig. 8: for each region size, a one-region table is filled, then split in the middle with
 * {@code Admin.split} while two probes (one row in each future daughter) get their rows every millisecond.
 * The step times come from the master's operation history; the table is dropped afterwards to free the disk.
 */
final class SplitMeasurement {
  static final List<String> PHASES = List.of("close", "clone", "openA", "openB", "publish");

  /** One split: the region's size, its steps (ms), the master's and both probes' unavailability. */
  record Row(int sizeMb, long rows, long regionDiskBytes, Map<String, Long> phasesMillis, long masterUnavailableMillis,
      long bytesCopied, long adminCallMillis, Probe.Window probeA, Probe.Window probeB) {}

  private SplitMeasurement() {}

  static List<Row> run(BenchCluster cluster, Connection conn, Admin admin, Settings s, Path dataDir, PrintStream out,
      List<String> notes) throws IOException, InterruptedException {
    List<Row> rows = new ArrayList<>();
    for (int sizeMb : s.splitSizesMb()) {
      long free = Files.getFileStore(dataDir).getUsableSpace() >> 20;
      // the region's log is about its data size; the clone links it; keep 2 GB for the rest of the run
      long needed = sizeMb * 13L / 10 + 2048;
      if (free < needed) {
        String note = String.format("split of %,d MB skipped: it needs about %,d MB free on %s, %,d MB are",
            sizeMb, needed, dataDir, free);
        notes.add(note);
        out.println(note);
        continue;
      }
      rows.add(one(cluster, conn, admin, s, sizeMb, out, notes));
    }
    return rows;
  }

  private static Row one(BenchCluster cluster, Connection conn, Admin admin, Settings s, int sizeMb, PrintStream out,
      List<String> notes) throws IOException, InterruptedException {
    TableName name = TableName.valueOf("split_" + sizeMb + "mb");
    admin.createTable(TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(KeySpace.FAMILY)).build());
    KeySpace keys = new KeySpace("r", ((long) sizeMb << 20) / s.bulkValueBytes());
    long t = System.nanoTime();
    DataLoader.load(conn, name, keys, s.bulkValueBytes());
    double loadSeconds = (System.nanoTime() - t) / 1e9;
    RegionInfo parent = admin.getRegions(name).get(0);
    ServerName host;
    try (RegionLocator locator = conn.getRegionLocator(name)) {
      host = locator.getRegionLocation(parent.getStartKey(), true).getServerName();
    }
    long disk = BenchCluster.diskBytes(cluster.serverAt(host.getPort()).dataDir());
    out.printf("split %,d MB: loaded %,d rows in %.1f s (%.0f MB/s); %s holds %,d MB on disk%n", sizeMb, keys.count(),
        loadSeconds, sizeMb / loadSeconds, host.getHostAndPort(), disk >> 20);
    // keys are mixed, so the sorted order of rows is not their index order: probe the 1st and 3rd quartile rows
    List<byte[]> sorted = new ArrayList<>();
    for (long i = 0; i < keys.count(); i++) {
      sorted.add(keys.row(i));
    }
    sorted.sort(org.apache.hadoop.hbase.util.Bytes.BYTES_COMPARATOR);
    try (Probe a = new Probe(cluster.clientConfiguration(), name, sorted.get(sorted.size() / 4), "a").start();
         Probe b = new Probe(cluster.clientConfiguration(), name, sorted.get(sorted.size() * 3 / 4), "b").start()) {
      long warm = System.nanoTime();
      if (!a.awaitServedSince(warm, 30_000) || !b.awaitServedSince(warm, 30_000)) {
        throw new IOException("the probes of " + name + " are not served before the split");
      }
      Thread.sleep(500);
      long from = System.nanoTime();
      long fromMillis = System.currentTimeMillis();
      admin.split(name);
      long adminMillis = (System.nanoTime() - from) / 1_000_000;
      long after = System.nanoTime();
      a.awaitServedSince(after, 30_000);
      b.awaitServedSince(after, 30_000);
      Thread.sleep(200);
      long to = System.nanoTime();
      OperationHistory.Operation op = cluster.history().recent().stream()
          .filter(o -> o.kind().equals("split") && o.region().equals(parent.getRegionNameAsString())
              && o.startedAtMillis() >= fromMillis - 1_000)
          .findFirst().orElseThrow(() -> new IOException("the master recorded no split of " + parent.getRegionNameAsString()));
      Row row = new Row(sizeMb, keys.count(), disk, op.phasesMillis(), op.unavailableMillis(), op.bytes(), adminMillis,
          a.window(from, to), b.window(from, to));
      out.printf("split %,d MB: %s; master: %d ms unavailable; probes: %.1f / %.1f ms refused->served, max gap %.1f / %.1f ms%n",
          sizeMb, op.phasesMillis(), op.unavailableMillis(), row.probeA().refusedToServedMillis(),
          row.probeB().refusedToServedMillis(), row.probeA().maxGapMillis(), row.probeB().maxGapMillis());
      Tables.drop(admin, name, out, notes);
      return row;
    }
  }
}
