package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static io.basalt.it.Fixtures.b;
import static io.basalt.it.Fixtures.createTable;
import static io.basalt.it.Fixtures.rows;
import static io.basalt.it.Fixtures.scan;
import static io.basalt.it.Fixtures.splits;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.BothTargets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.junit.jupiter.api.Timeout;

/** Scan options: batch, limit, caching, start/stop inclusiveness, prefixes, and reversed scans across regions. */
@Timeout(120)
class ScanOptionsTest {
  /** Rows r00..r19, five columns c0..c4 each, in four regions split at r05, r10, r15. */
  private static Table twentyRows(Connection conn, String name) throws IOException {
    TableName t = createTable(conn, name, splits("r05", "r10", "r15"));
    Table table = conn.getTable(t);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Put p = new Put(b(row(i)));
      for (int c = 0; c < 5; c++) {
        p.addColumn(CF, b("c" + c), b(row(i) + "/c" + c));
      }
      puts.add(p);
    }
    table.put(puts);
    return table;
  }

  private static String row(int i) {
    return String.format("r%02d", i);
  }

  private static List<String> range(int fromInclusive, int toInclusive) {
    return IntStream.rangeClosed(Math.min(fromInclusive, toInclusive), Math.max(fromInclusive, toInclusive))
        .mapToObj(ScanOptionsTest::row)
        .sorted(fromInclusive <= toInclusive ? java.util.Comparator.naturalOrder() : java.util.Comparator.reverseOrder())
        .toList();
  }

  @BothTargets
  void batchSplitsWideRowsIntoParts(Connection conn) throws IOException {
    try (Table table = twentyRows(conn, "so_batch")) {
      List<Result> parts = scan(table, new Scan().setBatch(2));
      assertThat(parts).hasSize(60);
      assertThat(parts.subList(0, 3)).extracting(Result::size).containsExactly(2, 2, 1);
      assertThat(parts.subList(0, 3)).extracting(r -> Fixtures.s(r.getRow())).containsOnly("r00");
      assertThat(parts.get(2).getValue(CF, b("c4"))).isEqualTo(b("r00/c4"));
      // A batch at least as wide as the row returns it whole.
      assertThat(scan(table, new Scan().setBatch(5))).hasSize(20);
    }
  }

  @BothTargets
  void limitAndCaching(Connection conn) throws IOException {
    try (Table table = twentyRows(conn, "so_limit")) {
      assertThat(rows(table, new Scan().setLimit(7))).isEqualTo(range(0, 6));
      assertThat(rows(table, new Scan().withStartRow(b("r08")).setLimit(4))).isEqualTo(range(8, 11));
      assertThat(rows(table, new Scan().setCaching(3))).isEqualTo(range(0, 19));
      assertThat(rows(table, new Scan().setCaching(1).setLimit(12))).isEqualTo(range(0, 11));
      // (No setLimit together with setBatch: the 2.6.4 ClientScanner then trips its own "assert newLimit >= 0"
      // under -ea, against HBase as against Basalt.)
    }
  }

  /**
   * Every call returns one cell (size limit 1), and a filter hides each row's last cell, so a row's last result
   * says "more in this row". The call that meets the next row reaches the limit and returns nothing: the client
   * must take that answer as the end of the scan, not a heartbeat, to complete the row it holds (seed
   * 62475315741104 of DifferentialTest lost its last row there).
   */
  @BothTargets
  void limitReachedWhereARowCutBySizeEnds(Connection conn) throws IOException {
    try (Table table = twentyRows(conn, "so_limit_cut")) {
      Scan scan = new Scan().setMaxResultSize(1).setCaching(2)
          .setFilter(new QualifierFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("c4"))));
      List<Result> one = scan(table, scan.setLimit(1));
      assertThat(one).extracting(r -> Fixtures.s(r.getRow())).containsExactly("r00");
      assertThat(one.get(0).size()).isEqualTo(4);
      assertThat(rows(table, scan.setLimit(3))).isEqualTo(range(0, 2));
    }
  }

  @BothTargets
  void startAndStopRowInclusiveness(Connection conn) throws IOException {
    try (Table table = twentyRows(conn, "so_bounds")) {
      assertThat(rows(table, new Scan().withStartRow(b("r05")).withStopRow(b("r10")))).isEqualTo(range(5, 9));
      assertThat(rows(table, new Scan().withStartRow(b("r05")).withStopRow(b("r10"), true))).isEqualTo(range(5, 10));
      assertThat(rows(table, new Scan().withStartRow(b("r05"), false).withStopRow(b("r10"), true))).isEqualTo(range(6, 10));
      // Bounds that fall between rows.
      assertThat(rows(table, new Scan().withStartRow(b("r04x")).withStopRow(b("r07x"), true))).isEqualTo(range(5, 7));
      // start == stop: nothing with an exclusive stop, the one row with an inclusive one.
      assertThat(rows(table, new Scan().withStartRow(b("r12")).withStopRow(b("r12")))).isEmpty();
      assertThat(rows(table, new Scan().withStartRow(b("r12")).withStopRow(b("r12"), true))).containsExactly("r12");
      assertThat(rows(table, new Scan().setStartStopRowForPrefixScan(b("r1")))).isEqualTo(range(10, 19));
      // Column selection narrows every row.
      List<Result> narrow = scan(table, new Scan().addColumn(CF, b("c3")).withStopRow(b("r02")));
      assertThat(narrow).extracting(Result::size).containsExactly(1, 1);
    }
  }

  @BothTargets
  void smallMaxResultSizeStillReturnsWholeRows(Connection conn) throws IOException {
    try (Table table = twentyRows(conn, "so_result_size")) {
      List<Result> whole = scan(table, new Scan().setMaxResultSize(1).setCaching(100));
      assertThat(whole).hasSize(20);
      assertThat(whole).extracting(Result::size).containsOnly(5);
    }
  }

  @BothTargets
  void allowPartialResultsSplitsRowsAtTheSizeLimit(Connection conn) throws IOException {
    try (Table table = twentyRows(conn, "so_partials")) {
      List<Result> parts = scan(table, new Scan().setMaxResultSize(1).setAllowPartialResults(true)
          .withStopRow(b("r02")));
      assertThat(parts).hasSize(10);
      assertThat(parts).extracting(Result::size).containsOnly(1);
      assertThat(parts.get(0).mayHaveMoreCellsInRow()).isTrue();
      assertThat(parts.get(4).mayHaveMoreCellsInRow()).isFalse();
    }
  }

  @BothTargets
  void reversedScansCrossRegionBoundaries(Connection conn) throws IOException {
    try (Table table = twentyRows(conn, "so_reversed")) {
      assertThat(rows(table, new Scan().setReversed(true))).isEqualTo(range(19, 0));
      // Reversed: the start row is the upper bound (inclusive), the stop row the lower (exclusive by default).
      assertThat(rows(table, new Scan().setReversed(true).withStartRow(b("r12")).withStopRow(b("r03"))))
          .isEqualTo(range(12, 4));
      assertThat(rows(table, new Scan().setReversed(true).withStartRow(b("r12")).withStopRow(b("r03"), true)))
          .isEqualTo(range(12, 3));
      assertThat(rows(table, new Scan().setReversed(true).withStartRow(b("r12"), false).withStopRow(b("r10"), true)))
          .isEqualTo(range(11, 10));
      // A start row between rows, right at a region boundary, and a limit that crosses it.
      assertThat(rows(table, new Scan().setReversed(true).withStartRow(b("r10")).setLimit(3))).isEqualTo(range(10, 8));
      assertThat(rows(table, new Scan().setReversed(true).withStartRow(b("r09z")).setLimit(3))).isEqualTo(range(9, 7));
      assertThat(rows(table, new Scan().setReversed(true).withStartRow(b("r11")).setCaching(2).setLimit(5)))
          .isEqualTo(range(11, 7));
      // Reversed with batch: the parts of each row still come in column order.
      List<Result> parts = scan(table, new Scan().setReversed(true).withStartRow(b("r05")).withStopRow(b("r04"), true)
          .setBatch(2));
      assertThat(parts).extracting(r -> Fixtures.s(r.getRow())).containsExactly("r05", "r05", "r05", "r04", "r04", "r04");
      assertThat(Fixtures.cells(parts.get(0))).containsExactly("cf:c0=r05/c0", "cf:c1=r05/c1");
    }
  }
}
