package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.bulk.ImportOptions;
import io.basalt.server.bulk.TsvImport;
import io.basalt.server.bulk.TsvParser;
import io.basalt.server.bulk.LineReader;
import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import io.basalt.storage.mutation.RowMutation;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The figure of docs/import.md: {@code basalt import} against loading the same file through the HBase client
 * (a BufferedMutator with default settings, the file parsed by the same parser), into two tables of the same
 * standalone Basalt with the same four regions. Run with {@code bin/import-bench [ROWS]}, or
 * {@code -Dbasalt.it.import.rows=N} (10 columns of 16-byte values per row); prints rows/s and MB/s of input
 * and appends them to {@code target/target-logs/import-bench.txt}.
 */
@EnabledIfSystemProperty(named = "basalt.it.import.rows", matches = "[0-9]+")
@Timeout(3600)
class ImportBenchmarkTest {
  private static final int COLUMNS = 10;
  @TempDir Path dir;

  @Test
  void importAgainstTheClientPath() throws Exception {
    int rows = Integer.getInteger("basalt.it.import.rows");
    Path file = dir.resolve("bench.tsv");
    writeInput(file, rows);
    long fileBytes = Files.size(file);
    StringBuilder spec = new StringBuilder("HBASE_ROW_KEY");
    for (int c = 0; c < COLUMNS; c++) {
      spec.append(",f:c").append(c);
    }
    ImportOptions options = ImportOptions.from(Map.of(ImportOptions.COLUMNS, spec.toString()), System.currentTimeMillis());
    try (StandaloneServer server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0))) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
      try (Connection conn = ConnectionFactory.createConnection(conf);
           AsyncConnection async = ConnectionFactory.createAsyncConnection(conf).get()) {
        // Warm-up of both paths (JIT, JE caches), on tables of their own.
        Path warm = dir.resolve("warm.tsv");
        writeInput(warm, Math.min(rows, 50_000));
        importFile(async, options, table(conn, "bench_warm_import"), warm);
        clientLoad(conn, options, table(conn, "bench_warm_client"), warm);

        TableName viaClient = table(conn, "bench_client");
        long start = System.nanoTime();
        long clientRows = clientLoad(conn, options, viaClient, file);
        double clientSeconds = (System.nanoTime() - start) / 1e9;

        TableName viaImport = table(conn, "bench_import");
        start = System.nanoTime();
        TsvImport.Summary s = importFile(async, options, viaImport, file);
        double importSeconds = (System.nanoTime() - start) / 1e9;

        assertThat(clientRows).isEqualTo(rows);
        assertThat(s.rowsLoaded()).isEqualTo(rows);
        assertThat(count(conn, viaImport)).isEqualTo(rows);
        assertThat(count(conn, viaClient)).isEqualTo(rows);
        String report = String.format("import bench: %,d rows x %d columns, %.1f MB file, standalone (4 regions), "
            + "one JVM, %d cores%n  basalt import:        %6.1f s  %,9.0f rows/s  %6.1f MB/s%n"
            + "  client BufferedMutator: %6.1f s  %,9.0f rows/s  %6.1f MB/s%n  ratio: %.1fx%n", rows, COLUMNS,
            fileBytes / 1e6, Runtime.getRuntime().availableProcessors(), importSeconds, rows / importSeconds,
            fileBytes / 1e6 / importSeconds, clientSeconds, rows / clientSeconds, fileBytes / 1e6 / clientSeconds,
            clientSeconds / importSeconds);
        System.out.print(report);
        Path logDir = Path.of(System.getProperty("basalt.it.logDir", "target"));
        Files.createDirectories(logDir);
        Files.writeString(logDir.resolve("import-bench.txt"), java.time.Instant.now() + " " + report,
            StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
    }
  }

  /** Rows in random key order, 16 random letters per value. */
  private static void writeInput(Path file, int rows) throws IOException {
    Random random = new Random(42);
    char[] value = new char[16];
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < rows; i++) {
        w.write(String.format("user%010d", (i * 2_654_435_761L) % 10_000_000_000L));
        for (int c = 0; c < COLUMNS; c++) {
          for (int k = 0; k < value.length; k++) {
            value[k] = (char) ('a' + random.nextInt(26));
          }
          w.write('\t');
          w.write(value);
        }
        w.write('\n');
      }
    }
  }

  private static TableName table(Connection conn, String name) throws IOException {
    TableName t = TableName.valueOf(name);
    byte[][] splits = {Bytes.toBytes("user2500000000"), Bytes.toBytes("user5000000000"), Bytes.toBytes("user7500000000")};
    conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(t)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Bytes.toBytes("f"))).build(), splits);
    return t;
  }

  private static TsvImport.Summary importFile(AsyncConnection async, ImportOptions options, TableName t, Path file)
      throws IOException {
    return new TsvImport(async, options, TsvImport.Tuning.DEFAULT, System.out, System.err).run(t, List.of(file.toString()));
  }

  /** The same file through the client: parsed alike, one Put per line, a BufferedMutator with default settings. */
  private static long clientLoad(Connection conn, ImportOptions options, TableName t, Path file) throws IOException {
    TsvParser parser = new TsvParser(options);
    long n = 0;
    try (BufferedMutator m = conn.getBufferedMutator(t); LineReader lines = new LineReader(Files.newInputStream(file))) {
      while (lines.next()) {
        RowMutation row;
        try {
          row = parser.parse(lines.line(), lines.length());
        } catch (TsvParser.BadLineException e) {
          throw new AssertionError(e);
        }
        Put put = new Put(row.row());
        for (io.basalt.storage.cell.Cell c : row.cells()) {
          put.addColumn(c.family(), c.qualifier(), c.timestamp(), c.value());
        }
        m.mutate(put);
        n++;
      }
      m.flush();
    }
    conn.getAdmin().flush(t); // what the import ends with, for the same durability
    return n;
  }

  private static long count(Connection conn, TableName t) throws IOException {
    long n = 0;
    try (Table table = conn.getTable(t);
         ResultScanner s = table.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(10_000))) {
      while (s.next() != null) {
        n++;
      }
    }
    return n;
  }
}
