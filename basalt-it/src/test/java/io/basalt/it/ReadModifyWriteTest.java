package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static io.basalt.it.Fixtures.Q;
import static io.basalt.it.Fixtures.b;
import static io.basalt.it.Fixtures.cells;
import static io.basalt.it.Fixtures.createTable;
import static io.basalt.it.Fixtures.family;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.target.BothTargets;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;

/** Increment, Append and checkAndMutate: what they return and when they apply. */
@Timeout(120)
class ReadModifyWriteTest {
  private static final byte[] ROW = b("r");

  private static Table table(Connection conn, String name) throws IOException {
    return conn.getTable(createTable(conn, name, family("cf", 5)));
  }

  private static boolean apply(Table table, CheckAndMutate cam) throws IOException {
    return table.checkAndMutate(cam).isSuccess();
  }

  @BothTargets
  void incrementReturnsTheNewValues(Connection conn) throws IOException {
    try (Table table = table(conn, "rmw_incr")) {
      Result r = table.increment(new Increment(ROW).addColumn(CF, b("a"), 1).addColumn(CF, b("b"), 10));
      assertThat(Bytes.toLong(r.getValue(CF, b("a")))).isEqualTo(1);
      assertThat(Bytes.toLong(r.getValue(CF, b("b")))).isEqualTo(10);
      r = table.increment(new Increment(ROW).addColumn(CF, b("a"), 41).addColumn(CF, b("b"), -15));
      assertThat(Bytes.toLong(r.getValue(CF, b("a")))).isEqualTo(42);
      assertThat(Bytes.toLong(r.getValue(CF, b("b")))).isEqualTo(-5);
      assertThat(r.size()).isEqualTo(2);
      // Only the incremented columns come back, and they are stored as 8-byte longs.
      table.put(new Put(ROW).addColumn(CF, b("other"), b("x")));
      r = table.increment(new Increment(ROW).addColumn(CF, b("a"), 0));
      assertThat(cells(r)).hasSize(1);
      assertThat(Bytes.toLong(table.get(new Get(ROW)).getValue(CF, b("a")))).isEqualTo(42);
      assertThat(table.incrementColumnValue(b("fresh"), CF, Q, -3)).isEqualTo(-3);
      // setReturnResults(false): applied, nothing returned.
      r = table.increment(new Increment(ROW).addColumn(CF, b("a"), 8).setReturnResults(false));
      assertThat(r.isEmpty()).isTrue();
      assertThat(Bytes.toLong(table.get(new Get(ROW)).getValue(CF, b("a")))).isEqualTo(50);
    }
  }

  @BothTargets
  void incrementOfANonLongFails(Connection conn) throws IOException {
    try (Table table = table(conn, "rmw_incr_bad")) {
      table.put(new Put(ROW).addColumn(CF, Q, b("abc")));
      assertThatThrownBy(() -> table.increment(new Increment(ROW).addColumn(CF, Q, 1)))
          .isInstanceOf(DoNotRetryIOException.class);
      assertThat(Bytes.toString(table.get(new Get(ROW)).getValue(CF, Q))).isEqualTo("abc");
    }
  }

  @BothTargets
  void appendReturnsTheWholeNewValue(Connection conn) throws IOException {
    try (Table table = table(conn, "rmw_append")) {
      Result r = table.append(new Append(ROW).addColumn(CF, b("s"), b("ab")).addColumn(CF, b("t"), b("1")));
      assertThat(cells(r)).containsExactly("cf:s=ab", "cf:t=1");
      r = table.append(new Append(ROW).addColumn(CF, b("s"), b("cd")));
      assertThat(cells(r)).containsExactly("cf:s=abcd");
      r = table.append(new Append(ROW).addColumn(CF, b("s"), b("ef")).setReturnResults(false));
      assertThat(r.isEmpty()).isTrue();
      assertThat(Bytes.toString(table.get(new Get(ROW)).getValue(CF, b("s")))).isEqualTo("abcdef");
      // The appended value is a new version; the old one is still there to read.
      assertThat(Fixtures.values(table.get(new Get(ROW).readAllVersions()), CF, b("s")))
          .containsExactly("abcdef", "abcd", "ab");
    }
  }

  @BothTargets
  void checkAndMutateOnColumnValues(Connection conn) throws IOException {
    try (Table table = table(conn, "rmw_cam")) {
      table.put(new Put(ROW).addColumn(CF, Q, b("5")));
      // "operand OP stored": with 5 stored, GREATER 7 holds (7 > 5), GREATER 3 does not.
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifMatches(CF, Q, CompareOperator.GREATER, b("7"))
          .build(new Put(ROW).addColumn(CF, b("g7"), b("y"))))).isTrue();
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifMatches(CF, Q, CompareOperator.GREATER, b("3"))
          .build(new Put(ROW).addColumn(CF, b("g3"), b("y"))))).isFalse();
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifMatches(CF, Q, CompareOperator.LESS_OR_EQUAL, b("5"))
          .build(new Put(ROW).addColumn(CF, b("le5"), b("y"))))).isTrue();
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifMatches(CF, Q, CompareOperator.NOT_EQUAL, b("5"))
          .build(new Put(ROW).addColumn(CF, b("ne5"), b("y"))))).isFalse();
      // Against a missing cell: NOT_EQUAL is false, and so is everything but ifNotExists.
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifMatches(CF, b("missing"), CompareOperator.NOT_EQUAL, b("x"))
          .build(new Put(ROW).addColumn(CF, b("ne-missing"), b("y"))))).isFalse();
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifNotExists(CF, b("missing"))
          .build(new Put(ROW).addColumn(CF, b("was-missing"), b("y"))))).isTrue();
      // A Delete as the action.
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifEquals(CF, Q, b("5"))
          .build(new Delete(ROW).addColumns(CF, b("g7"))))).isTrue();
      Result r = table.get(new Get(ROW));
      assertThat(r.getValue(CF, b("g7"))).isNull();
      assertThat(r.getValue(CF, b("le5"))).isNotNull();
      assertThat(r.getValue(CF, b("was-missing"))).isNotNull();
      assertThat(r.getValue(CF, b("g3"))).isNull();
      assertThat(r.getValue(CF, b("ne5"))).isNull();
      assertThat(r.getValue(CF, b("ne-missing"))).isNull();
    }
  }

  @BothTargets
  void checkAndMutateWithRowMutationsAndInBatches(Connection conn) throws IOException {
    try (Table table = table(conn, "rmw_cam_rows")) {
      table.put(new Put(ROW).addColumn(CF, Q, b("on")).addColumn(CF, b("gone"), b("x")));
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifEquals(CF, Q, b("on"))
          .build(RowMutations.of(List.of(new Delete(ROW).addColumns(CF, b("gone")),
              new Put(ROW).addColumn(CF, b("new"), b("y"))))))).isTrue();
      assertThat(cells(table.get(new Get(ROW)))).containsExactly("cf:new=y", "cf:q=on");

      List<CheckAndMutateResult> results = table.checkAndMutate(List.of(
          CheckAndMutate.newBuilder(ROW).ifEquals(CF, Q, b("on")).build(new Put(ROW).addColumn(CF, b("b1"), b("1"))),
          CheckAndMutate.newBuilder(ROW).ifEquals(CF, Q, b("off")).build(new Put(ROW).addColumn(CF, b("b2"), b("2"))),
          CheckAndMutate.newBuilder(b("other")).ifNotExists(CF, Q).build(new Put(b("other")).addColumn(CF, Q, b("3")))));
      assertThat(results).extracting(CheckAndMutateResult::isSuccess).containsExactly(true, false, true);
      assertThat(table.get(new Get(ROW)).getValue(CF, b("b1"))).isNotNull();
      assertThat(table.get(new Get(ROW)).getValue(CF, b("b2"))).isNull();
      assertThat(table.exists(new Get(b("other")))).isTrue();
    }
  }

  @BothTargets
  void checkAndMutateWithAFilterCondition(Connection conn) throws IOException {
    try (Table table = table(conn, "rmw_cam_filter")) {
      table.put(new Put(ROW).addColumn(CF, Q, b("5")).addColumn(CF, b("kind"), b("apple")));
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW)
          .ifMatches(new SingleColumnValueFilter(CF, Q, CompareOperator.EQUAL, b("5")))
          .build(new Put(ROW).addColumn(CF, b("yes"), b("1"))))).isTrue();
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW)
          .ifMatches(new SingleColumnValueFilter(CF, Q, CompareOperator.EQUAL, b("6")))
          .build(new Put(ROW).addColumn(CF, b("no"), b("1"))))).isFalse();
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW)
          .ifMatches(new FilterList(new SingleColumnValueFilter(CF, Q, CompareOperator.EQUAL, b("5")),
              new SingleColumnValueFilter(CF, b("kind"), CompareOperator.EQUAL, b("apple"))))
          .build(new Put(ROW).addColumn(CF, b("both"), b("1"))))).isTrue();
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW)
          .ifMatches(new FilterList(new SingleColumnValueFilter(CF, Q, CompareOperator.EQUAL, b("5")),
              new SingleColumnValueFilter(CF, b("kind"), CompareOperator.EQUAL, b("pear"))))
          .build(new Put(ROW).addColumn(CF, b("neither"), b("1"))))).isFalse();
      Result r = table.get(new Get(ROW));
      assertThat(r.getValue(CF, b("yes"))).isNotNull();
      assertThat(r.getValue(CF, b("both"))).isNotNull();
      assertThat(r.getValue(CF, b("no"))).isNull();
      assertThat(r.getValue(CF, b("neither"))).isNull();
    }
  }

  @BothTargets
  void checkAndMutateHonoursItsTimeRange(Connection conn) throws IOException {
    try (Table table = table(conn, "rmw_cam_time")) {
      table.put(new Put(ROW).addColumn(CF, Q, 10L, b("old")));
      table.put(new Put(ROW).addColumn(CF, Q, 20L, b("new")));
      // Within [0, 15) the newest version is "old".
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifEquals(CF, Q, b("old")).timeRange(TimeRange.between(0, 15))
          .build(new Put(ROW).addColumn(CF, b("a"), b("1"))))).isTrue();
      assertThat(apply(table, CheckAndMutate.newBuilder(ROW).ifEquals(CF, Q, b("old"))
          .build(new Put(ROW).addColumn(CF, b("b"), b("1"))))).isFalse();
    }
  }

  @BothTargets
  void checkAndMutateWithIncrementOrAppendReturnsTheirResult(Connection conn) throws IOException {
    try (Table table = table(conn, "rmw_cam_incr")) {
      table.put(new Put(ROW).addColumn(CF, Q, b("go")));
      CheckAndMutateResult incremented = table.checkAndMutate(CheckAndMutate.newBuilder(ROW).ifEquals(CF, Q, b("go"))
          .build(new Increment(ROW).addColumn(CF, b("n"), 5)));
      assertThat(incremented.isSuccess()).isTrue();
      assertThat(Bytes.toLong(incremented.getResult().getValue(CF, b("n")))).isEqualTo(5);
      CheckAndMutateResult appended = table.checkAndMutate(CheckAndMutate.newBuilder(ROW).ifEquals(CF, Q, b("go"))
          .build(new Append(ROW).addColumn(CF, b("s"), b("xy"))));
      assertThat(appended.isSuccess()).isTrue();
      assertThat(Bytes.toString(appended.getResult().getValue(CF, b("s")))).isEqualTo("xy");
    }
  }
}
