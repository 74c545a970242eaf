package io.basalt.server.bulk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.RowMutation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ImportTsv's parsing, corner by corner (TsvParser and TsvImporterMapper of hbase-mapreduce 2.6 are the reference). */
class TsvParserTest {
  private static final long NOW = 1_700_000_000_000L;

  private static ImportOptions options(String columns, String... more) {
    Map<String, String> s = new HashMap<>();
    s.put(ImportOptions.COLUMNS, columns);
    for (int i = 0; i < more.length; i += 2) {
      s.put(more[i], more[i + 1]);
    }
    return ImportOptions.from(s, NOW);
  }

  private static List<String> parse(ImportOptions o, String line) throws TsvParser.BadLineException {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    RowMutation m = new TsvParser(o).parse(b, b.length);
    List<String> out = new ArrayList<>();
    for (Cell c : m.cells()) {
      out.add(Bytes.toStringBinary(c.row()) + "/" + Bytes.toStringBinary(c.family()) + ":"
          + Bytes.toStringBinary(c.qualifier()) + "@" + c.timestamp() + "=" + Bytes.toStringBinary(c.value()));
    }
    return out;
  }

  private static String badReason(ImportOptions o, String line) {
    try {
      parse(o, line);
    } catch (TsvParser.BadLineException e) {
      return e.getMessage();
    }
    throw new AssertionError("line parsed: " + line);
  }

  @Test
  void fieldsBecomeCellsAtTheImportTimestamp() throws Exception {
    ImportOptions o = options("HBASE_ROW_KEY,cf:a,cf:b,other");
    assertThat(parse(o, "row1\tx\ty\tz")).containsExactly("row1/cf:a@" + NOW + "=x", "row1/cf:b@" + NOW + "=y",
        "row1/other:@" + NOW + "=z");
  }

  @Test
  void theRowKeyMayBeAnyColumnAndTrailingFieldsMayBeMissing() throws Exception {
    ImportOptions o = options("cf:a ,HBASE_ROW_KEY, cf:b,cf:c");
    assertThat(parse(o, "x\trow")).containsExactly("row/cf:a@" + NOW + "=x");
    assertThat(badReason(o, "x")).isEqualTo("No delimiter");
  }

  @Test
  void noQuotingOrEscaping() throws Exception {
    ImportOptions o = options("HBASE_ROW_KEY,cf:a,cf:b", ImportOptions.SEPARATOR, ",");
    assertThat(parse(o, "\"r,1\",\\x")).as("quotes are data; the separator inside them still splits")
        .containsExactly("\"r/cf:a@" + NOW + "=1\"", "\"r/cf:b@" + NOW + "=\\x5Cx");
  }

  @Test
  void emptyFieldsAreEmptyValuesUnlessSkipped() throws Exception {
    assertThat(parse(options("HBASE_ROW_KEY,cf:a,cf:b"), "r\t\tv")).containsExactly("r/cf:a@" + NOW + "=",
        "r/cf:b@" + NOW + "=v");
    ImportOptions skip = options("HBASE_ROW_KEY,cf:a,cf:b", ImportOptions.SKIP_EMPTY_COLUMNS, "true");
    assertThat(parse(skip, "r\t\tv")).containsExactly("r/cf:b@" + NOW + "=v");
    assertThat(badReason(skip, "r\t\t")).isEqualTo("No columns to insert");
  }

  @Test
  void badLinesHaveImportTsvsReasons() {
    ImportOptions o = options("HBASE_ROW_KEY,cf:a");
    assertThat(badReason(o, "")).isEqualTo("No delimiter");
    assertThat(badReason(o, "just-a-key")).isEqualTo("No delimiter");
    assertThat(badReason(o, "r\ta\tb")).isEqualTo("Excessive columns");
    assertThat(badReason(o, "\tvalue")).isEqualTo("Row length is 0");
    ImportOptions late = options("cf:a,cf:b,HBASE_ROW_KEY");
    assertThat(badReason(late, "a\tb")).isEqualTo("No row key");
  }

  @Test
  void timestampColumn() throws Exception {
    ImportOptions o = options("HBASE_ROW_KEY,HBASE_TS_KEY,cf:a");
    assertThat(parse(o, "r\t42\tv")).containsExactly("r/cf:a@42=v");
    assertThat(badReason(o, "r\tsoon\tv")).isEqualTo("Invalid timestamp soon");
    assertThat(badReason(o, "r\t\tv")).isEqualTo("Invalid timestamp ");
    assertThat(badReason(o, "r\t-1\tv")).isEqualTo("Timestamp cannot be negative. ts=-1");
    assertThat(parse(o, "r\t9223372036854775807\tv")).as("LATEST_TIMESTAMP: the import's, so a rerun is idempotent")
        .containsExactly("r/cf:a@" + NOW + "=v");
    ImportOptions tsLast = options("HBASE_ROW_KEY,cf:a,HBASE_TS_KEY");
    assertThat(badReason(tsLast, "r\tv")).isEqualTo("No timestamp");
  }

  @Test
  void importTimestampSetting() throws Exception {
    ImportOptions o = options("HBASE_ROW_KEY,cf:a", ImportOptions.TIMESTAMP, "77");
    assertThat(parse(o, "r\tv")).containsExactly("r/cf:a@77=v");
  }

  @Test
  void separatorIsOneByte() throws Exception {
    assertThat(parse(options("HBASE_ROW_KEY,cf:a", ImportOptions.SEPARATOR, "|"), "r|a\tb"))
        .containsExactly("r/cf:a@" + NOW + "=a\\x09b");
    assertThatThrownBy(() -> options("HBASE_ROW_KEY,cf:a", ImportOptions.SEPARATOR, "||"))
        .hasMessage("TsvParser only supports single-byte separators");
    assertThatThrownBy(() -> options("HBASE_ROW_KEY,cf:a", ImportOptions.SEPARATOR, "\u00e9"))
        .hasMessage("TsvParser only supports single-byte separators");
  }

  @Test
  void columnSpecificationsImportTsvRefuses() {
    assertThatThrownBy(() -> ImportOptions.from(Map.of(), NOW))
        .hasMessage("No columns specified. Please specify with -Dimporttsv.columns=...");
    assertThatThrownBy(() -> options("cf:a,cf:b")).hasMessage("Must specify exactly one column as HBASE_ROW_KEY");
    assertThatThrownBy(() -> options(" HBASE_ROW_KEY,cf:a")).as("ImportTsv checks untrimmed names")
        .hasMessage("Must specify exactly one column as HBASE_ROW_KEY");
    assertThatThrownBy(() -> options("HBASE_ROW_KEY,HBASE_ROW_KEY,cf:a"))
        .hasMessage("Must specify exactly one column as HBASE_ROW_KEY");
    assertThatThrownBy(() -> options("HBASE_ROW_KEY,HBASE_TS_KEY,HBASE_TS_KEY,cf:a"))
        .hasMessage("Must specify at most one column as HBASE_TS_KEY");
    assertThatThrownBy(() -> options("HBASE_ROW_KEY,HBASE_TS_KEY"))
        .hasMessage("One or more columns in addition to the row key and timestamp(optional) are required");
    assertThatThrownBy(() -> options("HBASE_ROW_KEY,cf:a,HBASE_CELL_TTL")).hasMessageContaining("per-cell TTL");
    assertThatThrownBy(() -> options("HBASE_ROW_KEY,cf:a", "importtsv.bulk.output", "/tmp/x"))
        .hasMessageContaining("importtsv.bulk.output is not supported");
    assertThatThrownBy(() -> options("HBASE_ROW_KEY,cf:a", ImportOptions.TIMESTAMP, "9223372036854775807"))
        .hasMessageContaining("LATEST_TIMESTAMP");
    assertThatThrownBy(() -> options("HBASE_ROW_KEY,cf:a", ImportOptions.TIMESTAMP, "later"))
        .hasMessageContaining("importtsv.timestamp");
  }

  @Test
  void familiesAreListedOnceInOrder() {
    assertThat(options("HBASE_ROW_KEY,b:x,a,b:y").familyNames()).containsExactly("b", "a");
  }

  @Test
  void booleanSettingsReadAsHadoopDoes() {
    assertThat(options("HBASE_ROW_KEY,cf:a").skipBadLines()).isTrue();
    assertThat(options("HBASE_ROW_KEY,cf:a", ImportOptions.SKIP_BAD_LINES, "FALSE").skipBadLines()).isFalse();
    assertThat(options("HBASE_ROW_KEY,cf:a", ImportOptions.SKIP_BAD_LINES, "nope").skipBadLines()).isTrue();
  }
}
