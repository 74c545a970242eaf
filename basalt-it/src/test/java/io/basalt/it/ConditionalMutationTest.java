package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.BothTargets;
import java.io.IOException;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;

/**
 * Reads and writes with conditions and time bounds through the real client: checkAndMutate with filters, time
 * ranges and read-modify-write actions, and per-family time ranges on reads.
 */
@Timeout(120)
class ConditionalMutationTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] Q = Bytes.toBytes("q");

  private static Table table(Connection conn, String name) throws IOException {
    return conn.getTable(Fixtures.createTable(conn, name, Fixtures.family("cf", 5)));
  }

  @BothTargets
  void filterConditionHoldsWhenTheFilteredRowHasCells(Connection conn) throws IOException {
    try (Table table = table(conn, "cm_filter")) {
      byte[] row = Bytes.toBytes("f");
      table.put(new Put(row).addColumn(CF, Q, Bytes.toBytes("5")));
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row)
          .ifMatches(new SingleColumnValueFilter(CF, Q, CompareOperator.EQUAL, Bytes.toBytes("5")))
          .build(new Put(row).addColumn(CF, Bytes.toBytes("yes"), Bytes.toBytes("1")))).isSuccess()).isTrue();
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row)
          .ifMatches(new SingleColumnValueFilter(CF, Q, CompareOperator.EQUAL, Bytes.toBytes("6")))
          .build(new Put(row).addColumn(CF, Bytes.toBytes("no"), Bytes.toBytes("1")))).isSuccess()).isFalse();
      assertThat(table.get(new Get(row)).getValue(CF, Bytes.toBytes("yes"))).isNotNull();
      assertThat(table.get(new Get(row)).getValue(CF, Bytes.toBytes("no"))).isNull();
    }
  }

  @BothTargets
  void incrementsAndAppendsInsideAtomicUpdates(Connection conn) throws IOException {
    try (Table table = table(conn, "cm_rmw")) {
      byte[] row = Bytes.toBytes("rmw");
      Result r = table.mutateRow(org.apache.hadoop.hbase.client.RowMutations.of(java.util.List.of(
          new Put(row).addColumn(CF, Bytes.toBytes("p"), Bytes.toBytes("x")),
          new org.apache.hadoop.hbase.client.Increment(row).addColumn(CF, Bytes.toBytes("n"), 7))));
      assertThat(Bytes.toLong(r.getValue(CF, Bytes.toBytes("n")))).isEqualTo(7);
      var cam = table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Bytes.toBytes("p"), Bytes.toBytes("x"))
          .build(new org.apache.hadoop.hbase.client.Increment(row).addColumn(CF, Bytes.toBytes("n"), 3)));
      assertThat(cam.isSuccess()).isTrue();
      assertThat(Bytes.toLong(cam.getResult().getValue(CF, Bytes.toBytes("n")))).isEqualTo(10);
      var appended = table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Bytes.toBytes("p"), Bytes.toBytes("x"))
          .build(new org.apache.hadoop.hbase.client.Append(row).addColumn(CF, Bytes.toBytes("p"), Bytes.toBytes("y"))));
      assertThat(Bytes.toString(appended.getResult().getValue(CF, Bytes.toBytes("p")))).isEqualTo("xy");
      var refused = table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Bytes.toBytes("p"), Bytes.toBytes("x"))
          .build(new org.apache.hadoop.hbase.client.Increment(row).addColumn(CF, Bytes.toBytes("n"), 100)));
      assertThat(refused.isSuccess()).isFalse();
      assertThat(Bytes.toLong(table.get(new Get(row)).getValue(CF, Bytes.toBytes("n")))).isEqualTo(10);
    }
  }

  @BothTargets
  void perFamilyTimeRangesOnGetsAndScans(Connection conn) throws IOException {
    byte[] other = Bytes.toBytes("other");
    TableName name = Fixtures.createTable(conn, "cm_family_ranges", Fixtures.family("cf", 5), Fixtures.family("other", 5));
    try (Table table = conn.getTable(name)) {
      byte[] row = Bytes.toBytes("r");
      for (long ts = 1; ts <= 4; ts++) {
        table.put(new Put(row).addColumn(CF, Q, ts, Bytes.toBytes("cf" + ts)).addColumn(other, Q, ts, Bytes.toBytes("o" + ts)));
      }
      Result r = table.get(new Get(row).readAllVersions().setColumnFamilyTimeRange(other, 1, 3));
      assertThat(r.getColumnCells(CF, Q)).hasSize(4);
      assertThat(r.getColumnCells(other, Q)).extracting(c -> c.getTimestamp()).containsExactly(2L, 1L);
      try (var scanner = table.getScanner(new org.apache.hadoop.hbase.client.Scan().setColumnFamilyTimeRange(CF, 4, 5))) {
        Result s = scanner.next();
        assertThat(Bytes.toString(s.getValue(CF, Q))).isEqualTo("cf4");
        assertThat(Bytes.toString(s.getValue(other, Q))).isEqualTo("o4");
      }
    }
  }

  @BothTargets
  void columnConditionHonoursItsTimeRange(Connection conn) throws IOException {
    try (Table table = table(conn, "cm_time_range")) {
      byte[] row = Bytes.toBytes("t");
      table.put(new Put(row).addColumn(CF, Q, 10L, Bytes.toBytes("old")));
      table.put(new Put(row).addColumn(CF, Q, 20L, Bytes.toBytes("new")));
      // Within [0, 15) the newest version is "old".
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Q, Bytes.toBytes("old"))
          .timeRange(TimeRange.between(0, 15)).build(new Put(row).addColumn(CF, Bytes.toBytes("a"), Bytes.toBytes("1"))))
          .isSuccess()).isTrue();
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Q, Bytes.toBytes("old"))
          .build(new Put(row).addColumn(CF, Bytes.toBytes("b"), Bytes.toBytes("1")))).isSuccess()).isFalse();
    }
  }
}
