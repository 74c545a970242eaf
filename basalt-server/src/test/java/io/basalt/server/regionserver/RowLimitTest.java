package io.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.read.RowResult;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RowLimitTest {
  private static RowResult result(String row, boolean partial) {
    Cell c = new Cell(Bytes.toBytes(row), Bytes.toBytes("f"), Bytes.toBytes("q"), 1, CellType.PUT, Bytes.toBytes("v"));
    return new RowResult(Bytes.toBytes(row), List.of(c), partial);
  }

  private static List<String> rows(RowLimit.Cut cut) {
    return cut.results().stream().map(r -> Bytes.toString(r.row()) + (r.partial() ? "+" : "")).toList();
  }

  @Test
  void noLimitKeepsEverything() {
    List<RowResult> in = List.of(result("a", false), result("b", false));
    assertThat(RowLimit.apply(in, 0, null).results()).isEqualTo(in);
    assertThat(RowLimit.apply(in, 0, null).reached()).isFalse();
  }

  @Test
  void aCompleteResultCountsItsRow() {
    RowLimit.Cut cut = RowLimit.apply(List.of(result("a", false), result("b", false), result("c", false)), 2, null);
    assertThat(rows(cut)).containsExactly("a", "b");
    assertThat(cut.reached()).isTrue();
  }

  @Test
  void aPartialRowCountsWhenTheNextRowBeginsAndTheCallStopsBeforeIt() {
    // HBase's region server: a+ then b begins (a counted: 1), b+ then c begins (b counted: 2 = limit): c is not sent.
    RowLimit.Cut cut = RowLimit.apply(List.of(result("a", true), result("b", true), result("c", false)), 2, null);
    assertThat(rows(cut)).containsExactly("a+", "b+");
    assertThat(cut.reached()).isTrue();
  }

  @Test
  void theRowLeftPartialByThePreviousCallCountsWhenAnotherRowBegins() {
    assertThat(rows(RowLimit.apply(List.of(result("b", false)), 1, Bytes.toBytes("a")))).isEmpty();
    // The same row going on does not count it.
    RowLimit.Cut cut = RowLimit.apply(List.of(result("a", false), result("b", false)), 2, Bytes.toBytes("a"));
    assertThat(rows(cut)).containsExactly("a", "b");
    assertThat(cut.reached()).isTrue();
  }

  @Test
  void partsOfOneRowCountOnce() {
    RowLimit.Cut cut = RowLimit.apply(List.of(result("a", true), result("a", true), result("a", false)), 2, null);
    assertThat(rows(cut)).containsExactly("a+", "a+", "a");
    assertThat(cut.reached()).isFalse();
  }
}
