package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static io.basalt.it.Fixtures.b;
import static io.basalt.it.Fixtures.cells;
import static io.basalt.it.Fixtures.createTable;
import static io.basalt.it.Fixtures.rows;
import static io.basalt.it.Fixtures.scan;
import static io.basalt.it.Fixtures.splits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertAll;

import io.basalt.it.target.BothTargets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.junit.jupiter.api.Timeout;

/** Server-side filters as applications use them, on scans and gets. */
@Timeout(120)
class FilterTest {
  /** Seek hints are HBase's fake "first on row/column" cells (type byte Maximum), which a server must accept. */
  @BothTargets
  void filtersThatSeekByHint(Connection conn) throws IOException {
    try (Table table = fruits(conn, "f_hints")) {
      FilterList one = new FilterList(FilterList.Operator.MUST_PASS_ONE, new PrefixFilter(b("fruit1")),
          new PrefixFilter(b("fruit8")));
      assertAll(
          // PrefixFilter without a start row seeks from the first row to the prefix.
          () -> assertThat(rows(table, new Scan().setFilter(new PrefixFilter(b("fruit7"))))).containsExactly("fruit7"),
          // ColumnPrefixFilter seeks past the columns before the prefix.
          () -> assertThat(cells(table.get(new Get(b("fruit1")).setFilter(new ColumnPrefixFilter(b("n"))))))
              .containsExactly("cf:name=n1"),
          () -> assertThat(rows(table, new Scan().setFilter(one))).containsExactly("fruit1", "fruit8"));
    }
  }

  /**
   * Rows fruit0..fruit9 with cf:name, cf:abc, cf:abd, cf:xyz; even rows have cf:color (red for 0,4,8; green for
   * 2,6); odd rows have none. Two regions, split at fruit5.
   */
  private static Table fruits(Connection conn, String name) throws IOException {
    TableName t = createTable(conn, name, splits("fruit5"));
    Table table = conn.getTable(t);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Put p = new Put(b("fruit" + i)).addColumn(CF, b("name"), b("n" + i)).addColumn(CF, b("abc"), b("abc" + i))
          .addColumn(CF, b("abd"), b("abd" + i)).addColumn(CF, b("xyz"), b("xyz" + i));
      if (i % 2 == 0) {
        p.addColumn(CF, b("color"), b(i % 4 == 0 ? "red" : "green"));
      }
      puts.add(p);
    }
    table.put(puts);
    return table;
  }

  @BothTargets
  void singleColumnValueFilterWithAndWithoutFilterIfMissing(Connection conn) throws IOException {
    try (Table table = fruits(conn, "f_scvf")) {
      SingleColumnValueFilter red = new SingleColumnValueFilter(CF, b("color"), CompareOperator.EQUAL, b("red"));
      // Rows without the column pass unless filterIfMissing is set.
      assertThat(rows(table, new Scan().setFilter(red)))
          .containsExactly("fruit0", "fruit1", "fruit3", "fruit4", "fruit5", "fruit7", "fruit8", "fruit9");
      SingleColumnValueFilter strict = new SingleColumnValueFilter(CF, b("color"), CompareOperator.EQUAL, b("red"));
      strict.setFilterIfMissing(true);
      assertThat(rows(table, new Scan().setFilter(strict))).containsExactly("fruit0", "fruit4", "fruit8");
      // The whole row comes back, not just the tested column.
      assertThat(scan(table, new Scan().setFilter(strict)).get(0).size()).isEqualTo(5);
      SingleColumnValueFilter notRed = new SingleColumnValueFilter(CF, b("color"), CompareOperator.NOT_EQUAL, b("red"));
      notRed.setFilterIfMissing(true);
      assertThat(rows(table, new Scan().setFilter(notRed))).containsExactly("fruit2", "fruit6");
      // On a Get: a row that fails the filter is empty.
      assertThat(table.get(new Get(b("fruit2")).setFilter(strict)).isEmpty()).isTrue();
      assertThat(table.get(new Get(b("fruit4")).setFilter(strict)).isEmpty()).isFalse();
    }
  }

  @BothTargets
  void columnPrefixAndQualifierRegexSelectColumns(Connection conn) throws IOException {
    try (Table table = fruits(conn, "f_columns")) {
      Result r = table.get(new Get(b("fruit3")).setFilter(new ColumnPrefixFilter(b("ab"))));
      assertThat(cells(r)).containsExactly("cf:abc=abc3", "cf:abd=abd3");
      List<Result> scanned = scan(table, new Scan().setFilter(
          new QualifierFilter(CompareOperator.EQUAL, new RegexStringComparator("^(ab.|col.*)$"))));
      assertThat(scanned).hasSize(10);
      assertThat(cells(scanned.get(0))).containsExactly("cf:abc=abc0", "cf:abd=abd0", "cf:color=red");
      assertThat(cells(scanned.get(1))).containsExactly("cf:abc=abc1", "cf:abd=abd1");
      // A regex matching nothing leaves no rows at all.
      assertThat(scan(table, new Scan().setFilter(
          new QualifierFilter(CompareOperator.EQUAL, new RegexStringComparator("^nope$"))))).isEmpty();
      // NOT_EQUAL with a binary comparator drops just that column.
      Result others = table.get(new Get(b("fruit1")).setFilter(new QualifierFilter(CompareOperator.NOT_EQUAL,
          new BinaryComparator(b("xyz")))));
      assertThat(cells(others)).containsExactly("cf:abc=abc1", "cf:abd=abd1", "cf:name=n1");
    }
  }

  @BothTargets
  void pageFilterWithinOneRegion(Connection conn) throws IOException {
    try (Table table = fruits(conn, "f_page")) {
      assertThat(rows(table, new Scan().withStartRow(b("fruit6")).setFilter(new PageFilter(2))))
          .containsExactly("fruit6", "fruit7");
      assertThat(rows(table, new Scan().withStopRow(b("fruit5")).setFilter(new PageFilter(10))))
          .containsExactly("fruit0", "fruit1", "fruit2", "fruit3", "fruit4");
    }
  }

  @BothTargets
  void pageFilterLimitsRowsPerRegion(Connection conn) throws IOException {
    try (Table table = fruits(conn, "f_page_regions")) {
      assertThat(rows(table, new Scan().setFilter(new PageFilter(3))))
          .containsExactly("fruit0", "fruit1", "fruit2", "fruit5", "fruit6", "fruit7");
      assertThat(rows(table, new Scan().setReversed(true).setFilter(new PageFilter(2))))
          .containsExactly("fruit9", "fruit8", "fruit4", "fruit3");
    }
  }

  @BothTargets
  void filterListsCombineWithAndOr(Connection conn) throws IOException {
    try (Table table = fruits(conn, "f_list")) {
      SingleColumnValueFilter green = new SingleColumnValueFilter(CF, b("color"), CompareOperator.EQUAL, b("green"));
      green.setFilterIfMissing(true);
      FilterList all = new FilterList(FilterList.Operator.MUST_PASS_ALL, green, new ColumnPrefixFilter(b("ab")));
      List<Result> scanned = scan(table, new Scan().setFilter(all));
      assertThat(scanned).extracting(r -> Fixtures.s(r.getRow())).containsExactly("fruit2", "fruit6");
      assertThat(cells(scanned.get(0))).containsExactly("cf:abc=abc2", "cf:abd=abd2");

      FilterList nested = new FilterList(FilterList.Operator.MUST_PASS_ALL,
          new FilterList(FilterList.Operator.MUST_PASS_ONE,
              new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator("^abc[0-4]$")),
              new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("xyz7")))),
          new PageFilter(100));
      List<String> found = new ArrayList<>();
      for (Result r : scan(table, new Scan().setFilter(nested))) {
        found.addAll(cells(r));
      }
      assertThat(found).containsExactly("cf:abc=abc0", "cf:abc=abc1", "cf:abc=abc2", "cf:abc=abc3", "cf:abc=abc4",
          "cf:xyz=xyz7");
    }
  }
}
