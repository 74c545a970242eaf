package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.error.RegionClosedException;
import io.basalt.storage.read.ReadFilter;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScanTest extends RegionTestBase {
  private Region region() {
    Region r = fixture().create(FamilySchema.of("f1").withMaxVersions(3), FamilySchema.of("f2"));
    for (String row : List.of("a", "b", "c", "d", "e")) {
      for (long ts = 1; ts <= 2; ts++) {
        apply(r, row(row).put(F1, of("q1"), ts, of(row + ts)).put(F1, of("q2"), ts, of(row + ts)));
      }
      if (!row.equals("c")) {
        put(r, row, F2, "x", 1, row + "x");
      }
    }
    return r;
  }

  private static List<String> rowKeys(List<RowResult> results) {
    List<String> out = new ArrayList<>();
    for (RowResult r : results) {
      out.add(Bytes.toStringBinary(r.row()));
    }
    return out;
  }

  @Test
  void wholeRowsInOrderWithBounds() {
    Region r = region();
    assertThat(rows(scanAll(r, ScanSpec.all()))).containsExactly(
        "a[f1:q1@2=a2, f1:q2@2=a2, f2:x@1=ax]", "b[f1:q1@2=b2, f1:q2@2=b2, f2:x@1=bx]", "c[f1:q1@2=c2, f1:q2@2=c2]",
        "d[f1:q1@2=d2, f1:q2@2=d2, f2:x@1=dx]", "e[f1:q1@2=e2, f1:q2@2=e2, f2:x@1=ex]");
    assertThat(rowKeys(scanAll(r, ScanSpec.range(of("b"), of("d"))))).containsExactly("b", "c");
    assertThat(rowKeys(scanAll(r, ScanSpec.range(of("b"), of("d")).withStart(of("b"), false).withStop(of("d"), true))))
        .containsExactly("c", "d");
    assertThat(rowKeys(scanAll(r, ScanSpec.range(of("bb"), of("")))) ).containsExactly("c", "d", "e");
    assertThat(scanAll(r, ScanSpec.range(of("c"), of("c")))).isEmpty();
    assertThat(rowKeys(scanAll(r, ScanSpec.range(of("c"), of("c")).withStop(of("c"), true)))).containsExactly("c");
  }

  @Test
  void reversedScansReturnRowsDescendingWithCellsInNormalOrder() {
    Region r = region();
    assertThat(rowKeys(scanAll(r, ScanSpec.all().reversed(true)))).containsExactly("e", "d", "c", "b", "a");
    List<RowResult> fromD = scanAll(r, ScanSpec.range(of("d"), of("b")).reversed(true));
    assertThat(rowKeys(fromD)).containsExactly("d", "c");
    assertThat(show(fromD.get(0).cells())).containsExactly("f1:q1@2=d2", "f1:q2@2=d2", "f2:x@1=dx");
    assertThat(rowKeys(scanAll(r, ScanSpec.range(of("dd"), of("b")).withStop(of("b"), true).reversed(true))))
        .containsExactly("d", "c", "b");
    assertThat(rowKeys(scanAll(r, ScanSpec.range(of("d"), of("")).withStart(of("d"), false).reversed(true))))
        .containsExactly("c", "b", "a");
  }

  @Test
  void reversedScanStoppingExactlyAtTheRegionStartHonoursExclusivity() {
    Region r = fixture().create("upper", new io.basalt.storage.schema.KeyRange(of("c"), Bytes.EMPTY), FamilySchema.of("f1"));
    for (String row : List.of("c", "d", "e")) {
      put(r, row, F1, "q", 1, row);
    }
    assertThat(rowKeys(scanAll(r, ScanSpec.all().withStop(of("c"), false).reversed(true)))).containsExactly("e", "d");
    assertThat(rowKeys(scanAll(r, ScanSpec.all().withStop(of("c"), true).reversed(true)))).containsExactly("e", "d", "c");
    assertThat(rowKeys(scanAll(r, ScanSpec.all().withStop(of("b"), false).reversed(true)))).containsExactly("e", "d", "c");
  }

  @Test
  void timeRangeVersionsAndColumns() {
    Region r = region();
    ScanSpec spec = ScanSpec.range(of("a"), of("b"))
        .withRead(ReadOptions.DEFAULT.withMaxVersions(5).withTimeRange(new TimeRange(1, 3)).withColumns(columns(F1, "q2")));
    assertThat(rows(scanAll(r, spec))).containsExactly("a[f1:q2@2=a2, f1:q2@1=a1]");
    ScanSpec onlyF2 = ScanSpec.all().withRead(ReadOptions.DEFAULT.withColumns(columns(F2, null)));
    assertThat(rowKeys(scanAll(r, onlyF2))).containsExactly("a", "b", "d", "e");
  }

  @Test
  void limitCountsRowsAndBatchSplitsRows() {
    Region r = region();
    assertThat(rowKeys(scanAll(r, ScanSpec.all().withLimit(2)))).containsExactly("a", "b");
    List<RowResult> batched = scanAll(r, ScanSpec.range(of("a"), of("c")).withBatch(2)
        .withRead(ReadOptions.DEFAULT.withMaxVersions(2)));
    assertThat(rows(batched)).containsExactly(
        "a(partial)[f1:q1@2=a2, f1:q1@1=a1]", "a(partial)[f1:q2@2=a2, f1:q2@1=a1]", "a[f2:x@1=ax]",
        "b(partial)[f1:q1@2=b2, f1:q1@1=b1]", "b(partial)[f1:q2@2=b2, f1:q2@1=b1]", "b[f2:x@1=bx]");
    List<RowResult> limitedBatches = scanAll(r, ScanSpec.all().withBatch(2).withLimit(1));
    assertThat(rowKeys(limitedBatches)).containsExactly("a", "a");
  }

  @Test
  void resultSizeLimitStopsABatchEarly() {
    Region r = region();
    try (RegionScanner s = r.scan(ScanSpec.all())) {
      assertThat(s.next(100, 1)).hasSize(1);
      assertThat(s.next(100, Long.MAX_VALUE)).hasSize(4);
      assertThat(s.next(100, Long.MAX_VALUE)).isEmpty();
      assertThat(s.isDone()).isTrue();
    }
  }

  @Test
  void aPassedDeadlineReturnsNothingYetWithoutEndingTheScan() {
    Region r = region();
    try (RegionScanner s = r.scan(ScanSpec.all())) {
      assertThat(s.next(10, Long.MAX_VALUE, System.nanoTime() - 1)).isEmpty();
      assertThat(s.isDone()).isFalse();
      assertThat(s.next(10, Long.MAX_VALUE)).hasSize(5);
    }
  }

  /**
   * HBase's scan is no snapshot: a row changed after the scan began "may or may not" be seen. Here the cursors
   * stay where the last row's walk left them, so a row written behind that point is not (HBase's scanner would
   * not see it either, past its read point), and writes ahead of it are.
   */
  @Test
  void writesBetweenBatchesAreSeenAheadOfTheScannerOnly() {
    Region r = region();
    try (RegionScanner s = r.scan(ScanSpec.all())) {
      assertThat(rowKeys(s.next(1, Long.MAX_VALUE))).containsExactly("a");
      put(r, "aa", F2, "x", 1, "behind");
      put(r, "b", F2, "x", 3, "b3");
      put(r, "bb", F2, "x", 1, "ahead");
      assertThat(rows(s.next(2, Long.MAX_VALUE)))
          .containsExactly("b[f1:q1@2=b2, f1:q2@2=b2, f2:x@3=b3]", "bb[f2:x@1=ahead]");
    }
  }

  @Test
  void aScannerKeepsItsCursorsAcrossCallsOnOtherThreadsAndClosingTheRegionClosesThem() throws Exception {
    Region r = region();
    List<String> seen = new ArrayList<>();
    try (RegionScanner s = r.scan(ScanSpec.all())) {
      while (!s.isDone()) {
        // JE ties a non-transactional cursor's locks to the thread that opened it; a scan's take none.
        var call = java.util.concurrent.CompletableFuture.supplyAsync(() -> s.next(2, Long.MAX_VALUE),
            runnable -> new Thread(runnable).start());
        seen.addAll(rowKeys(call.get(10, java.util.concurrent.TimeUnit.SECONDS)));
      }
    }
    assertThat(seen).containsExactly("a", "b", "c", "d", "e");

    RegionScanner open = r.scan(ScanSpec.all());
    assertThat(rowKeys(open.next(1, Long.MAX_VALUE))).containsExactly("a");
    r.alterFamilies(new RegionDescriptor(List.of(FamilySchema.of("f1").withMaxVersions(3), FamilySchema.of("f2"),
        FamilySchema.of("f3")), KeyRange.ALL)); // JE closes no database with a cursor open: the region closes them
    RegionScanner another = r.scan(ScanSpec.all());
    assertThat(rowKeys(another.next(1, Long.MAX_VALUE))).containsExactly("a");
    r.close();
    assertThatThrownBy(() -> another.next(1, Long.MAX_VALUE)).isInstanceOf(RegionClosedException.class);
    open.close();
    another.close();
  }

  @Test
  void aWriteToTheNextRowMidScanIsSeenThoughTheCursorsWereAlreadyPastIt() {
    Region r = region();
    var locks = ((JeRegion) r).rowLocks();
    assertThat(locks.shareStripe(of("b"), of("c"))).as("b and c on different lock stripes").isFalse();
    // Runs after row b's walk, which left the f1 cursor on row c's first key (q1@2): q1@5 sorts before it.
    ReadFilter writeToC = new ReadFilter() {
      private String row;

      @Override
      public boolean filterRowKey(byte[] rowKey) {
        row = Bytes.toStringBinary(rowKey);
        return false;
      }

      @Override
      public boolean filterRow() {
        if (row.equals("b")) {
          put(r, "c", F1, "q1", 5, "c5");
        }
        return false;
      }
    };
    List<RowResult> out = scanAll(r, ScanSpec.range(of("b"), of("d")).withRead(ReadOptions.DEFAULT.withFilter(writeToC)));
    assertThat(rows(out)).containsExactly("b[f1:q1@2=b2, f1:q2@2=b2, f2:x@1=bx]", "c[f1:q1@5=c5, f1:q2@2=c2]");
  }

  @Test
  void filterHookIsCalledInHBaseOrder() {
    Region r = region();
    List<String> calls = new ArrayList<>();
    ReadFilter filter = new ReadFilter() {
      @Override
      public void reset() {
        calls.add("reset");
      }

      @Override
      public boolean filterRowKey(byte[] row) {
        calls.add("rowKey " + Bytes.toStringBinary(row));
        return Bytes.toStringBinary(row).equals("b");
      }

      @Override
      public Decision filterCell(Cell cell) {
        calls.add("cell " + Bytes.toStringBinary(cell.row()) + ":" + Bytes.toStringBinary(cell.qualifier()));
        return Bytes.toStringBinary(cell.qualifier()).equals("q1") ? Decision.NEXT_COL : Decision.INCLUDE;
      }

      @Override
      public boolean hasFilterRow() {
        return true;
      }

      @Override
      public void filterRowCells(List<Cell> cells) {
        calls.add("rowCells " + cells.size());
      }

      @Override
      public boolean filterRow() {
        calls.add("filterRow");
        return false;
      }
    };
    List<RowResult> out = scanAll(r, ScanSpec.range(of("a"), of("c")).withRead(ReadOptions.DEFAULT.withFilter(filter)));
    assertThat(rows(out)).containsExactly("a[f1:q2@2=a2, f2:x@1=ax]");
    // As HBase: the filter is reset after each row; it is offered one version past the one wanted (a:q2@1), since
    // HBase counts versions after the filter.
    assertThat(calls).containsExactly("rowKey a", "cell a:q1", "cell a:q2", "cell a:q2", "cell a:x", "rowCells 2",
        "filterRow", "reset", "rowKey b", "reset");
  }

  @Test
  void filterNextRowHintsAndFilterAllRemaining() {
    Region r = region();
    ReadFilter hintToD = new ReadFilter() {
      @Override
      public Decision filterCell(Cell cell) {
        String row = Bytes.toStringBinary(cell.row());
        return row.compareTo("d") < 0 ? Decision.SEEK_NEXT_USING_HINT : Decision.INCLUDE_AND_SEEK_NEXT_ROW;
      }

      @Override
      public Cell nextCellHint(Cell current) {
        return Cell.put(of("d"), Bytes.EMPTY, Bytes.EMPTY, Long.MAX_VALUE, Bytes.EMPTY);
      }
    };
    assertThat(rows(scanAll(r, ScanSpec.all().withRead(ReadOptions.DEFAULT.withFilter(hintToD)))))
        .containsExactly("d[f1:q1@2=d2, f2:x@1=dx]", "e[f1:q1@2=e2, f2:x@1=ex]");
    int[] rowsSeen = {0};
    ReadFilter stopAfterTwo = new ReadFilter() {
      @Override
      public boolean filterAllRemaining() {
        return rowsSeen[0] >= 2;
      }

      @Override
      public boolean filterRowKey(byte[] row) {
        rowsSeen[0]++;
        return false;
      }
    };
    // HBase's store scanner asks filterAllRemaining before each key: row b's filterRowKey made it true, so b's
    // cells are not read and the scan ends.
    assertThat(rowKeys(scanAll(r, ScanSpec.all().withRead(ReadOptions.DEFAULT.withFilter(stopAfterTwo))))).containsExactly("a");
    ReadFilter dropRowC = new ReadFilter() {
      @Override
      public boolean filterRowKey(byte[] row) {
        return Bytes.toStringBinary(row).equals("c");
      }
    };
    assertThat(rowKeys(scanAll(r, ScanSpec.all().reversed(true).withRead(ReadOptions.DEFAULT.withFilter(dropRowC)))))
        .containsExactly("e", "d", "b", "a");
  }

  @Test
  void batchWithWholeRowFilterIsRefused() {
    Region r = region();
    ReadFilter rowFilter = new ReadFilter() {
      @Override
      public boolean hasFilterRow() {
        return true;
      }
    };
    assertThatThrownBy(() -> r.scan(ScanSpec.all().withBatch(1).withRead(ReadOptions.DEFAULT.withFilter(rowFilter))))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
