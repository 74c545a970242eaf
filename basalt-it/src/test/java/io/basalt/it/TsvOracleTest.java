package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.Processes;
import io.basalt.server.bulk.ImportOptions;
import io.basalt.server.bulk.TsvParser;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.RowMutation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * basalt import's parser against HBase 2.6.4's own: every line of a set of corner cases parsed by
 * {@code ImportTsv.TsvParser} (in a child JVM with hbase-mapreduce, see {@link HBaseTsvOracle}) and by
 * {@link TsvParser}; the cells, or the bad-line reasons, must be the same.
 */
@Timeout(300)
class TsvOracleTest {
  private static final long TS = 1_234_567_890_123L;
  @TempDir Path dir;

  private static final List<String> LINES = List.of(
      "row\ta\tb\tc", "row\ta\tb", "row\ta", "row", "", "\ta\tb", "row\t\t\t", "row\ta\tb\tc\td",
      "\"quoted\trow\"\tx", "r\\t\ta\\nb", "r,1\t2,3", " spaced \t v ", "row\t\u00e9\u00e8\t\u2603",
      "a\tb\tc\td\te\tf", "\t\t\t", "r\r\tv");

  private static final List<String> TS_LINES = List.of(
      "row\t42\tv", "row\tnot-a-ts\tv", "row\t\tv", "row\t-5\tv", "row\t9223372036854775807\tv", "row",
      "row\t42", "row\t 42\tv", "row\t+42\tv");

  @Test
  void plainColumnsAndEmptyFields() throws Exception {
    compare("HBASE_ROW_KEY,cf:a,cf:b,other", "\t", false, LINES);
  }

  @Test
  void rowKeyInTheMiddleAndAnotherSeparator() throws Exception {
    List<String> commas = new ArrayList<>();
    LINES.forEach(l -> commas.add(l.replace('\t', ',')));
    compare("cf:a,HBASE_ROW_KEY,cf:b", ",", false, commas);
  }

  @Test
  void skippedEmptyColumns() throws Exception {
    List<String> lines = new ArrayList<>(LINES);
    lines.removeIf(l -> l.equals("\t\t\t") || l.equals("row\t\t\t")); // no cell left: HBase fails the job there
    compare("HBASE_ROW_KEY,cf:a,cf:b,other", "\t", true, lines);
  }

  @Test
  void timestampColumn() throws Exception {
    List<String> lines = new ArrayList<>(TS_LINES);
    // Differences by design (docs/import.md): HBase stores a negative timestamp, Basalt calls the line bad; a line
    // with no cell is a bad line here, an empty Put that fails the whole job in HBase; HBase's server stamps a
    // LATEST_TIMESTAMP cell with its clock, Basalt with the import's timestamp (so a rerun writes the same cell).
    lines.removeAll(List.of("row\t-5\tv", "row\t42", "row\t9223372036854775807\tv"));
    compare("HBASE_ROW_KEY,HBASE_TS_KEY,cf:q", "\t", false, lines);
  }

  private void compare(String columns, String separator, boolean skipEmpty, List<String> lines) throws Exception {
    Path input = dir.resolve("lines.txt");
    Path output = dir.resolve("hbase.txt");
    Files.writeString(input, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    Path log = Files.createDirectories(Processes.logDir()).resolve("tsv-oracle.log");
    String classpath = Processes.classpathFromBuild("basalt.it.hbaseToolsClasspath");
    Process p = Processes.startJava(List.of("-Xmx256m"), classpath, HBaseTsvOracle.class.getName(),
        List.of(columns, separator, Long.toString(TS), Boolean.toString(skipEmpty), input.toString(), output.toString()),
        log);
    try {
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("oracle finished; output %s", log).isTrue();
      assertThat(p.exitValue()).as("oracle exit; output:%n%s", Processes.tail(log, 40)).isZero();
    } finally {
      Processes.stop(p, 5_000);
    }
    List<String> hbase = Files.readAllLines(output, StandardCharsets.UTF_8);
    assertThat(hbase).hasSize(lines.size());
    ImportOptions options = ImportOptions.from(Map.of(ImportOptions.COLUMNS, columns, ImportOptions.SEPARATOR, separator,
        ImportOptions.TIMESTAMP, Long.toString(TS), ImportOptions.SKIP_EMPTY_COLUMNS, Boolean.toString(skipEmpty)), 0);
    TsvParser parser = new TsvParser(options);
    for (int i = 0; i < lines.size(); i++) {
      assertThat(ours(parser, lines.get(i))).as("line %d: '%s'", i, lines.get(i)).isEqualTo(hbase.get(i));
    }
  }

  private static String ours(TsvParser parser, String line) throws IOException {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    RowMutation m;
    try {
      m = parser.parse(b, b.length);
    } catch (TsvParser.BadLineException e) {
      return "BAD " + e.getMessage();
    }
    StringBuilder cells = new StringBuilder("CELLS");
    for (Cell c : m.cells()) {
      cells.append(' ').append(HBaseTsvOracle.hex(c.row())).append('/').append(HBaseTsvOracle.hex(c.family()))
          .append(':').append(HBaseTsvOracle.hex(c.qualifier())).append('@').append(c.timestamp()).append('=')
          .append(HBaseTsvOracle.hex(c.value()));
    }
    return cells.toString();
  }
}
