package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.BothTargets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.junit.jupiter.api.Timeout;

/** Filters that steer the scan with seek hints (HBase's "first on row/column" cells). */
@Timeout(120)
class FilterHintTest {
  private static final byte[] CF2 = Bytes.toBytes("cg");

  /** Four rows, four qualifiers, two families. */
  private static Table table(Connection conn, String name) throws IOException {
    TableName t = Fixtures.createTable(conn, name, Fixtures.family("cf", 1), Fixtures.family("cg", 1));
    Table table = conn.getTable(t);
    List<Put> puts = new ArrayList<>();
    for (String row : List.of("a1x", "a2x", "b1x", "b2y")) {
      Put p = new Put(Bytes.toBytes(row));
      for (String q : List.of("apple", "apricot", "banana", "cherry")) {
        p.addColumn(CF, Bytes.toBytes(q), Bytes.toBytes(row + "/" + q));
        p.addColumn(CF2, Bytes.toBytes(q), Bytes.toBytes(row + "/" + q));
      }
      puts.add(p);
    }
    table.put(puts);
    return table;
  }

  private static List<String> scan(Table table, Filter filter) throws IOException {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = table.getScanner(new Scan().setFilter(filter))) {
      for (Result r : s) {
        for (Cell c : r.rawCells()) {
          out.add(Bytes.toString(CellUtil.cloneRow(c)) + ":" + Bytes.toString(CellUtil.cloneFamily(c)) + ":"
              + Bytes.toString(CellUtil.cloneQualifier(c)));
        }
      }
    }
    return out;
  }

  @BothTargets
  void columnPrefixSeeksWithinEachFamily(Connection conn) throws IOException {
    try (Table table = table(conn, "fh_prefix")) {
      assertThat(scan(table, new ColumnPrefixFilter(Bytes.toBytes("ap")))).hasSize(16).allMatch(s -> s.contains(":ap"));
      assertThat(scan(table, new MultipleColumnPrefixFilter(new byte[][] {Bytes.toBytes("ba"), Bytes.toBytes("ch")})))
          .hasSize(16).allMatch(s -> s.endsWith(":banana") || s.endsWith(":cherry"));
    }
  }

  @BothTargets
  void columnRangeSeeks(Connection conn) throws IOException {
    try (Table table = table(conn, "fh_range")) {
      assertThat(scan(table, new ColumnRangeFilter(Bytes.toBytes("apr"), true, Bytes.toBytes("c"), false)))
        .containsExactly("a1x:cf:apricot", "a1x:cf:banana", "a1x:cg:apricot", "a1x:cg:banana",
            "a2x:cf:apricot", "a2x:cf:banana", "a2x:cg:apricot", "a2x:cg:banana",
            "b1x:cf:apricot", "b1x:cf:banana", "b1x:cg:apricot", "b1x:cg:banana",
            "b2y:cf:apricot", "b2y:cf:banana", "b2y:cg:apricot", "b2y:cg:banana");
    }
  }

  @BothTargets
  void fuzzyRowSeeksBetweenRows(Connection conn) throws IOException {
    // "??x": any two bytes, then x (mask 1 = any byte, 0 = fixed).
    List<String> rows = new ArrayList<>();
    Table table = table(conn, "fh_fuzzy");
    for (String s : scan(table, new FuzzyRowFilter(List.of(new Pair<>(Bytes.toBytes("??x"), new byte[] {1, 1, 0}))))) {
      String row = s.substring(0, 3);
      if (!rows.contains(row)) {
        rows.add(row);
      }
    }
    table.close();
    assertThat(rows).containsExactly("a1x", "a2x", "b1x");
  }
}
