package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.bulk.BulkLoadClient;
import io.basalt.server.bulk.ImportOptions;
import io.basalt.server.bulk.LoadBatch;
import io.basalt.server.bulk.TsvImport;
import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import io.basalt.storage.mutation.RowMutation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code basalt import} ({@link TsvImport}) against a standalone Basalt: a file in random row order with bad
 * lines, repeated rows and empty fields into a table of four regions, every row read back through the HBase
 * client; a rerun with the same timestamp changes nothing; ImportTsv's errors; a batch that spans a region
 * boundary (as after a split) is taken up to the boundary.
 */
@Timeout(300)
class ImportTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] OTHER = Bytes.toBytes("other");
  private static final long TS = 1_600_000_000_000L;
  @TempDir Path dir;

  private static Configuration client(StandaloneServer server) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
    return conf;
  }

  private static TableName createTable(Connection conn, String name) throws IOException {
    TableName t = TableName.valueOf(name);
    conn.getAdmin().createTable(TableDescriptorBuilder.newBuilder(t)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(3).build())
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(OTHER)).build(),
        new byte[][] {Bytes.toBytes("row025"), Bytes.toBytes("row050"), Bytes.toBytes("row075")});
    return t;
  }

  private static ImportOptions options(String... more) {
    Map<String, String> s = new TreeMap<>();
    s.put(ImportOptions.COLUMNS, "HBASE_ROW_KEY,cf:a,cf:b,other:c");
    s.put(ImportOptions.TIMESTAMP, Long.toString(TS));
    for (int i = 0; i < more.length; i += 2) {
      s.put(more[i], more[i + 1]);
    }
    return ImportOptions.from(s, System.currentTimeMillis());
  }

  private TsvImport.Summary runImport(AsyncConnection conn, ImportOptions options, TableName table,
      List<String> inputs, ByteArrayOutputStream err) throws IOException {
    // Small batches and sort runs: many calls, every region several times, buffers over budget, runs merged.
    TsvImport.Tuning tuning = new TsvImport.Tuning(16 << 10, 256 << 10, 128 << 10, dir, 1);
    return new TsvImport(conn, options, tuning, System.out, new PrintStream(err, true, StandardCharsets.UTF_8))
        .run(table, inputs);
  }

  @Test
  void importsEveryRowOfAFileIntoAMultiRegionTableAndARerunChangesNothing() throws Exception {
    int rows = 20_000;
    List<String> lines = new ArrayList<>();
    Map<String, String[]> expected = new TreeMap<>();
    for (int i = 0; i < rows; i++) {
      String row = String.format("row%03d-%05d", i % 100, i);
      String[] values = {"a" + i, i % 7 == 0 ? "" : "b" + i, "c\u00e9" + i}; // empty fields, UTF-8
      expected.put(row, values);
      lines.add(row + "\t" + String.join("\t", values));
    }
    // A repeated row: the later line's cells win (same row, column and timestamp).
    lines.add("row010-00010\tfirst\tx\ty");
    expected.put("row010-00010", new String[] {"later", "x2", "y2"});
    Collections.shuffle(lines, new Random(7));
    lines.add("row010-00010\tlater\tx2\ty2");
    List<String> bad = List.of("no-delimiter", "\tempty-row-key", "too\tmany\tcolumns\there\tx", "");
    lines.addAll(5_000, bad);
    Path input = dir.resolve("input");
    Files.createDirectories(input);
    Files.write(input.resolve("part-1.tsv"), lines.subList(0, 12_000), StandardCharsets.UTF_8);
    Files.write(input.resolve("part-2.tsv"), lines.subList(12_000, lines.size()), StandardCharsets.UTF_8);
    Files.writeString(input.resolve("_SUCCESS"), "not data", StandardCharsets.UTF_8); // hidden, as in Hadoop

    try (StandaloneServer server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
         Connection conn = ConnectionFactory.createConnection(client(server));
         AsyncConnection async = ConnectionFactory.createAsyncConnection(client(server)).get()) {
      TableName table = createTable(conn, "import_rows");
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      TsvImport.Summary s = runImport(async, options(), table, List.of(input.toString()), err);

      assertThat(s.lines()).isEqualTo(lines.size());
      assertThat(s.badLines()).isEqualTo(bad.size());
      assertThat(s.rowsLoaded()).isEqualTo(lines.size() - bad.size());
      assertThat(s.cellsLoaded()).isEqualTo(3L * (lines.size() - bad.size()));
      assertThat(err.toString(StandardCharsets.UTF_8)).contains("Bad line at offset: ", "No delimiter",
          "Row length is 0", "Excessive columns");
      assertThat(readBack(conn, table)).isEqualTo(expectedCells(expected));
      assertThat(conn.getRegionLocator(table).getAllRegionLocations()).hasSize(4);

      TsvImport.Summary again = runImport(async, options(), table, List.of(input.toString()), err);
      assertThat(again.rowsLoaded()).isEqualTo(s.rowsLoaded());
      assertThat(readBack(conn, table)).as("same row, column and timestamp: the same cells, no new versions")
          .isEqualTo(expectedCells(expected));
    }
  }

  @Test
  void errorsAreImportTsvs() throws Exception {
    Path file = dir.resolve("in.tsv");
    Files.writeString(file, "k1\ta\tb\tc\nbad line\nk2\ta\tb\tc\n", StandardCharsets.UTF_8);
    try (StandaloneServer server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
         Connection conn = ConnectionFactory.createConnection(client(server));
         AsyncConnection async = ConnectionFactory.createAsyncConnection(client(server)).get()) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      assertThatThrownBy(() -> runImport(async, options(), TableName.valueOf("import_missing"), List.of(file.toString()), err))
          .isInstanceOf(TableNotFoundException.class).hasMessage("Table 'import_missing' does not exist.");
      TableName table = createTable(conn, "import_errors");
      Map<String, String> unknownFamily = Map.of(ImportOptions.COLUMNS, "HBASE_ROW_KEY,cf:a,nope:b,gone");
      assertThatThrownBy(() -> runImport(async, ImportOptions.from(unknownFamily, 1), table, List.of(file.toString()), err))
          .isInstanceOf(NoSuchColumnFamilyException.class).hasMessage("Column families: [nope, gone] do not exist.");
      assertThatThrownBy(() -> runImport(async, options(), table, List.of(dir.resolve("absent").toString()), err))
          .isInstanceOf(java.io.FileNotFoundException.class);

      assertThatThrownBy(() -> runImport(async, options(ImportOptions.SKIP_BAD_LINES, "false"), table,
          List.of(file.toString()), err)).isInstanceOf(IOException.class).hasMessageContaining("bad line at offset 9");
      assertThat(readBack(conn, table)).as("nothing is loaded before the whole input is read and sorted").isEmpty();

      TsvImport.Summary dry = runImport(async, options(ImportOptions.DRY_RUN, "true"), table, List.of(file.toString()), err);
      assertThat(dry.lines()).isEqualTo(3);
      assertThat(dry.badLines()).isEqualTo(1);
      assertThat(dry.rowsLoaded()).isZero();
    }
  }

  /** After a split the tool's batch may span two regions: the first takes its rows, the call says how many. */
  @Test
  void aBatchSpanningARegionBoundaryIsTakenUpToIt() throws Exception {
    try (StandaloneServer server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
         Connection conn = ConnectionFactory.createConnection(client(server));
         AsyncConnection async = ConnectionFactory.createAsyncConnection(client(server)).get()) {
      TableName table = createTable(conn, "import_boundary");
      List<RowMutation> rows = new ArrayList<>();
      for (String r : new String[] {"row020", "row024", "row025", "row030"}) {
        rows.add(RowMutation.of(Bytes.toBytes(r)).put(CF, Bytes.toBytes("a"), TS, Bytes.toBytes(r)).build());
      }
      byte[] batch = LoadBatch.encode(List.of(CF), rows);
      assertThat(BulkLoadClient.load(async.getTable(table), rows.get(0).row(), batch).get()).isEqualTo(2);
      assertThat(BulkLoadClient.load(async.getTable(table), rows.get(2).row(),
          LoadBatch.encode(List.of(CF), rows.subList(2, 4))).get()).isEqualTo(2);
      assertThat(readBack(conn, table)).containsOnlyKeys("row020/cf:a", "row024/cf:a", "row025/cf:a", "row030/cf:a");

      // The same checks as a put: an unknown family is refused, nothing written.
      byte[] unknown = LoadBatch.encode(List.of(Bytes.toBytes("nope")), List.of(RowMutation.of(Bytes.toBytes("row090"))
          .put(Bytes.toBytes("nope"), Bytes.toBytes("a"), TS, Bytes.toBytes("v")).build()));
      assertThatThrownBy(() -> BulkLoadClient.load(async.getTable(table), Bytes.toBytes("row090"), unknown).get())
          .isInstanceOf(ExecutionException.class).cause().isInstanceOf(NoSuchColumnFamilyException.class);
      assertThatThrownBy(() -> BulkLoadClient.load(async.getTable(table), Bytes.toBytes("row090"),
          Bytes.toBytes("garbage")).get()).cause().isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("not a bulk load batch");
      assertThat(readBack(conn, table)).hasSize(4);
    }
  }

  private static Map<String, String> expectedCells(Map<String, String[]> expected) {
    Map<String, String> out = new TreeMap<>();
    expected.forEach((row, v) -> {
      out.put(row + "/cf:a", v[0] + "@" + TS);
      out.put(row + "/cf:b", v[1] + "@" + TS);
      out.put(row + "/other:c", v[2] + "@" + TS);
    });
    return out;
  }

  /** Every stored version, "row/family:qualifier" to "value@ts" (a second version would fail the put). */
  static Map<String, String> readBack(Connection conn, TableName table) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Table t = conn.getTable(table); ResultScanner s = t.getScanner(new Scan().readAllVersions())) {
      for (Result r : s) {
        for (Cell c : r.rawCells()) {
          String key = Bytes.toString(CellUtil.cloneRow(c)) + "/" + Bytes.toString(CellUtil.cloneFamily(c)) + ":"
              + Bytes.toString(CellUtil.cloneQualifier(c));
          String value = Bytes.toString(CellUtil.cloneValue(c)) + "@" + c.getTimestamp();
          assertThat(out.put(key, value)).as("one version of %s", key).isNull();
        }
      }
    }
    return out;
  }
}
