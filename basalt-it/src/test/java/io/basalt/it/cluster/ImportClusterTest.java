package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.bulk.ImportOptions;
import io.basalt.server.bulk.TsvImport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code basalt import} into replicated regions (3 region servers, 3 copies each): the primary's server of one
 * region is killed mid-import; the import either rides over the failover or fails, and a rerun with the same
 * timestamp then completes it: every row readable from the new primaries, exactly one version of each cell.
 */
@Timeout(420)
class ImportClusterTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final long TS = 1_650_000_000_000L;
  @TempDir Path dir;

  private static long countRows(Connection conn, TableName table) throws IOException {
    long n = 0;
    try (Table t = conn.getTable(table); ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        n++;
      }
    }
    return n;
  }

  @Test
  void killingAPrimaryMidImportLosesNothingAndARerunFinishesIt() throws Exception {
    int rows = 24_000;
    Path file = dir.resolve("rows.tsv");
    List<String> lines = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      lines.add(String.format("k%05d\tv%d\tw%d", (i * 7919) % rows, i, i)); // every key once, out of order
    }
    Files.write(file, lines, StandardCharsets.UTF_8);
    ImportOptions options = ImportOptions.from(Map.of(ImportOptions.COLUMNS, "HBASE_ROW_KEY,f:a,f:b",
        ImportOptions.TIMESTAMP, Long.toString(TS)), System.currentTimeMillis());
    // Small batches (about 160 rows): hundreds of calls, so the kill lands mid-import.
    TsvImport.Tuning tuning = new TsvImport.Tuning(8 << 10, 1 << 20, 1 << 20, dir, 1);

    try (LocalCluster cluster = LocalCluster.replicated(dir.resolve("cluster"), 3, 3);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         AsyncConnection async = ConnectionFactory.createAsyncConnection(cluster.clientConfiguration()).get();
         Admin admin = conn.getAdmin()) {
      TableName table = TableName.valueOf("import_replicated");
      admin.createTable(TableDescriptorBuilder.newBuilder(table).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
          .build(), new byte[][] {Bytes.toBytes(String.format("k%05d", rows / 2))});
      ServerName primary;
      try (RegionLocator locator = conn.getRegionLocator(table)) {
        List<HRegionLocation> copies = locator.getRegionLocations(Bytes.toBytes("k00000"), true);
        assertThat(copies).hasSize(3);
        primary = copies.get(0).getServerName();
      }

      TsvImport first = new TsvImport(async, options, tuning, System.out, System.err);
      CompletableFuture<TsvImport.Summary> running = CompletableFuture.supplyAsync(() -> {
        try {
          return first.run(table, List.of(file.toString()));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (first.progress().rowsLoaded() < rows / 4 && !running.isDone() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      long before = first.progress().rowsLoaded();
      System.out.println("import: SIGKILL of " + primary + " after " + before + " acknowledged rows"
          + (running.isDone() ? " (the import had already finished)" : ""));
      cluster.kill(cluster.regionServerAt(primary));
      try {
        TsvImport.Summary s = running.get(300, TimeUnit.SECONDS);
        System.out.println("import: rode over the failover: " + s);
      } catch (java.util.concurrent.ExecutionException e) {
        System.out.println("import: failed across the failover (a rerun finishes it): " + e.getCause());
      }
      long acknowledged = first.progress().rowsLoaded();
      assertThat(countRows(conn, table)).as("every acknowledged row (each row is in one batch) is readable")
          .isGreaterThanOrEqualTo(acknowledged);
      TsvImport.Summary rerun = new TsvImport(async, options, tuning, System.out, System.err)
          .run(table, List.of(file.toString()));
      assertThat(rerun.rowsLoaded()).isEqualTo(rows);

      int seen = 0;
      try (Table t = conn.getTable(table); ResultScanner s = t.getScanner(new Scan().readAllVersions())) {
        for (Result r : s) {
          assertThat(r.rawCells()).as("row %s: two cells, one version each", Bytes.toString(r.getRow())).hasSize(2);
          for (Cell c : r.rawCells()) {
            assertThat(c.getTimestamp()).isEqualTo(TS);
            assertThat(Bytes.toString(CellUtil.cloneValue(c))).matches("[vw][0-9]+");
          }
          seen++;
        }
      }
      assertThat(seen).isEqualTo(rows);
    }
  }
}
