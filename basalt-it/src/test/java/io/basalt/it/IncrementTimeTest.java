package io.basalt.it;

import static io.basalt.it.Fixtures.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.BothTargets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;

/**
 * The time rules of read-modify-write and conditional writes, as HBase 2.6.4's HRegion applies them
 * (reckonDelta, checkAndMutateInternal): which version an increment reads, which timestamp its new cell gets,
 * and which timestamp a checkAndMutate's put gets.
 */
@Timeout(120)
class IncrementTimeTest {
  private static final byte[] CF = b("cf");
  private static final byte[] N = b("n");

  private static Table table(Connection conn, String name) throws IOException {
    return conn.getTable(Fixtures.createTable(conn, name, Fixtures.family("cf", 10)));
  }

  private static long counter(Result r) {
    return Bytes.toLong(r.getValue(CF, N));
  }

  private static long timestamp(Result r) {
    return r.getColumnLatestCell(CF, N).getTimestamp();
  }

  @BothTargets
  void anIncrementReadsTheNewestVersionInsideItsTimeRange(Connection conn) throws IOException {
    try (Table t = table(conn, "it_inc_range")) {
      byte[] row = b("r");
      t.put(new Put(row).addColumn(CF, N, 100, Bytes.toBytes(1L)).addColumn(CF, N, 200, Bytes.toBytes(10L)));
      long before = System.currentTimeMillis();
      Result r = t.increment(new Increment(row).addColumn(CF, N, 5).setTimeRange(0, 150));
      long after = System.currentTimeMillis();
      assertThat(counter(r)).isEqualTo(6); // 1 (at 100) + 5: the version at 200 is outside the range
      assertThat(timestamp(r)).isBetween(before, after);
      assertThat(counter(t.get(new Get(row)))).isEqualTo(6);
      // Nothing inside the range: the delta alone.
      r = t.increment(new Increment(row).addColumn(CF, N, 5).setTimeRange(300, 400));
      assertThat(counter(r)).isEqualTo(5);
      // Appends follow the same rule.
      t.put(new Put(row).addColumn(CF, b("s"), 100, b("old")).addColumn(CF, b("s"), 200, b("new")));
      Result a = t.append(new Append(row).addColumn(CF, b("s"), b("+")).setTimeRange(0, 150));
      assertThat(Bytes.toString(a.getValue(CF, b("s")))).isEqualTo("old+");
    }
  }

  @BothTargets
  void aClientTimestampIsKeptOnlyForANewCell(Connection conn) throws IOException {
    try (Table t = table(conn, "it_inc_client_ts")) {
      byte[] row = b("r");
      Increment first = new Increment(row);
      first.setTimestamp(500);
      Result r = t.increment(first.addColumn(CF, N, 3));
      assertThat(timestamp(r)).isEqualTo(500);
      assertThat(timestamp(t.get(new Get(row)))).isEqualTo(500);
      Increment second = new Increment(row);
      second.setTimestamp(600);
      long before = System.currentTimeMillis();
      r = t.increment(second.addColumn(CF, N, 3));
      assertThat(counter(r)).isEqualTo(6);
      assertThat(timestamp(r)).isGreaterThanOrEqualTo(before); // a current cell: now, the 600 is ignored
      Append app = new Append(row);
      app.setTimestamp(700);
      Result a = t.append(app.addColumn(CF, b("s"), b("x")));
      assertThat(a.getColumnLatestCell(CF, b("s")).getTimestamp()).isEqualTo(700);
    }
  }

  @BothTargets
  void aCurrentCellInTheFuturePushesTheNewCellJustAboveIt(Connection conn) throws IOException {
    try (Table t = table(conn, "it_inc_future")) {
      byte[] row = b("r");
      long future = System.currentTimeMillis() + 3_600_000L;
      t.put(new Put(row).addColumn(CF, N, future, Bytes.toBytes(1L)));
      Result r = t.increment(new Increment(row).addColumn(CF, N, 1));
      assertThat(counter(r)).isEqualTo(2);
      assertThat(timestamp(r)).isEqualTo(future + 1);
      assertThat(Fixtures.timestamps(t.get(new Get(row).readAllVersions()), CF, N)).containsExactly(future + 1, future);
    }
  }

  @BothTargets
  void aConditionalPutIsNeverOlderThanTheCellItsCheckRead(Connection conn) throws IOException {
    try (Table t = table(conn, "it_cam_ts")) {
      byte[] row = b("r");
      long future = System.currentTimeMillis() + 3_600_000L;
      t.put(new Put(row).addColumn(CF, b("flag"), future, b("go")));
      assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, b("flag"), b("go"))
          .build(new Put(row).addColumn(CF, b("a"), b("v")).addColumn(CF, b("b"), 7, b("w")))).isSuccess()).isTrue();
      Result r = t.get(new Get(row));
      assertThat(r.getColumnLatestCell(CF, b("a")).getTimestamp()).isEqualTo(future);
      assertThat(r.getColumnLatestCell(CF, b("b")).getTimestamp()).isEqualTo(7);
      // The same through an atomic RowMutations action.
      assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, b("flag"), b("go"))
          .build(RowMutations.of(List.of(new Put(row).addColumn(CF, b("c"), b("v")))))).isSuccess()).isTrue();
      assertThat(t.get(new Get(row)).getColumnLatestCell(CF, b("c")).getTimestamp()).isEqualTo(future);
      // A filter condition: the first cell the filtered read returns.
      byte[] row3 = b("r3");
      t.put(new Put(row3).addColumn(CF, b("flag"), future, b("go")));
      assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row3)
          .ifMatches(new SingleColumnValueFilter(CF, b("flag"), CompareOperator.EQUAL, b("go")))
          .build(new Put(row3).addColumn(CF, b("z"), b("v")))).isSuccess()).isTrue();
      assertThat(t.get(new Get(row3)).getColumnLatestCell(CF, b("z")).getTimestamp()).isEqualTo(future);
      // A check cell in the past leaves "now".
      byte[] row2 = b("r2");
      t.put(new Put(row2).addColumn(CF, b("flag"), 5, b("go")));
      long before = System.currentTimeMillis();
      assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row2).ifEquals(CF, b("flag"), b("go"))
          .build(new Put(row2).addColumn(CF, b("a"), b("v")))).isSuccess()).isTrue();
      assertThat(t.get(new Get(row2)).getColumnLatestCell(CF, b("a")).getTimestamp()).isGreaterThanOrEqualTo(before);
    }
  }

  @BothTargets
  void aCheckSeesOnlyVersionsInsideItsTimeRange(Connection conn) throws IOException {
    try (Table t = table(conn, "it_cam_range")) {
      byte[] row = b("r");
      t.put(new Put(row).addColumn(CF, b("flag"), 100, b("old")).addColumn(CF, b("flag"), 200, b("new")));
      CheckAndMutate.Builder old = CheckAndMutate.newBuilder(row).ifEquals(CF, b("flag"), b("old"));
      assertThat(t.checkAndMutate(old.build(new Put(row).addColumn(CF, b("x"), b("1")))).isSuccess()).isFalse();
      assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, b("flag"), b("old"))
          .timeRange(TimeRange.between(0, 150)).build(new Put(row).addColumn(CF, b("x"), b("1")))).isSuccess()).isTrue();
      // The put's timestamp is max(now, checked cell's), so "now" here.
      assertThat(t.get(new Get(row)).getColumnLatestCell(CF, b("x")).getTimestamp()).isGreaterThan(200);
      // Nothing inside the range: an existence check holds.
      assertThat(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(CF, b("flag"))
          .timeRange(TimeRange.between(300, 400)).build(new Put(row).addColumn(CF, b("y"), b("1")))).isSuccess()).isTrue();
    }
  }

  @BothTargets
  void incrementsOfOneColumnInOneUpdateAllReadTheStoredValue(Connection conn) throws IOException {
    try (Table t = table(conn, "it_inc_same_column")) {
      byte[] row = b("r");
      t.put(new Put(row).addColumn(CF, N, Bytes.toBytes(10L)));
      Result r = t.mutateRow(RowMutations.of(List.of(new Increment(row).addColumn(CF, N, 1),
          new Increment(row).addColumn(CF, N, 2))));
      assertThat(values(r)).containsExactly(11L, 12L);
      assertThat(counter(t.get(new Get(row)))).isEqualTo(12);
    }
  }

  private static List<Long> values(Result r) {
    List<Long> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      out.add(Bytes.toLong(CellUtil.cloneValue(c)));
    }
    return out;
  }
}
