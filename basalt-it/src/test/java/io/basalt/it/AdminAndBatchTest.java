package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static io.basalt.it.Fixtures.Q;
import static io.basalt.it.Fixtures.b;
import static io.basalt.it.Fixtures.createTable;
import static io.basalt.it.Fixtures.splits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.target.BothTargets;
import io.basalt.it.target.ClusterTarget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;

/** Table and namespace administration, mixed batches, conditional mutations and the async client. */
@Timeout(180)
class AdminAndBatchTest {
  private static int count(Table t) throws IOException {
    return Fixtures.scan(t, new Scan()).size();
  }

  @BothTargets
  void truncateKeepsSplitsAndEmptiesTheTable(Connection conn) throws IOException {
    TableName t = createTable(conn, "ab_trunc", splits("k"));
    try (Table table = conn.getTable(t); Admin admin = conn.getAdmin()) {
      table.put(List.of(new Put(b("a")).addColumn(CF, Q, b("1")), new Put(b("z")).addColumn(CF, Q, b("2"))));
      assertThat(count(table)).isEqualTo(2);
      admin.disableTable(t);
      admin.truncateTable(t, true);
      assertThat(admin.isTableEnabled(t)).isTrue();
      assertThat(admin.getRegions(t)).hasSize(2);
      assertThat(count(table)).isZero();
    }
  }

  @BothTargets
  void familyChangesTakeEffect(Connection conn) throws IOException {
    TableName t = createTable(conn, "ab_families");
    try (Table table = conn.getTable(t); Admin admin = conn.getAdmin()) {
      admin.addColumnFamily(t, ColumnFamilyDescriptorBuilder.of("extra"));
      table.put(new Put(b("r")).addColumn(b("extra"), Q, b("x")));
      admin.modifyColumnFamily(t, ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(3).build());
      for (long ts = 1; ts <= 4; ts++) {
        table.put(new Put(b("r")).addColumn(CF, Q, ts, b("v" + ts)));
      }
      Result all = table.get(new Get(b("r")).readAllVersions());
      assertThat(all.getColumnCells(CF, Q)).hasSize(3);
      TableDescriptor desc = admin.getDescriptor(t);
      assertThat(desc.getColumnFamily(CF).getMaxVersions()).isEqualTo(3);
      assertThat(desc.getColumnFamilyNames()).hasSize(2);
      admin.deleteColumnFamily(t, b("extra"));
      assertThat(admin.getDescriptor(t).getColumnFamilyNames()).hasSize(1);
      assertThat(table.get(new Get(b("r"))).getValue(b("extra"), Q)).isNull();
    }
  }

  @BothTargets
  void namespacesAndListings(Connection conn) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      admin.createNamespace(NamespaceDescriptor.create("ab_ns").addConfiguration("k", "v").build());
      assertThatThrownBy(() -> admin.createNamespace(NamespaceDescriptor.create("ab_ns").build()))
          .isInstanceOf(NamespaceExistException.class);
      assertThat(admin.getNamespaceDescriptor("ab_ns").getConfigurationValue("k")).isEqualTo("v");
      assertThat(admin.listNamespaceDescriptors()).extracting(NamespaceDescriptor::getName).contains("default", "hbase", "ab_ns");
      TableName t = createTable(conn, "ab_ns:inside");
      assertThat(admin.listTableNamesByNamespace("ab_ns")).containsExactly(t);
      assertThat(admin.listTableDescriptors()).extracting(TableDescriptor::getTableName).contains(t);
      // HBase answers a plain DoNotRetryIOException here (not ConstraintException).
      assertThatThrownBy(() -> admin.deleteNamespace("ab_ns")).isInstanceOf(DoNotRetryIOException.class);
      admin.disableTable(t);
      admin.deleteTable(t);
      admin.deleteNamespace("ab_ns");
      assertThat(admin.listNamespaceDescriptors()).extracting(NamespaceDescriptor::getName).doesNotContain("ab_ns");
      ClusterMetrics metrics = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
      assertThat(metrics.getLiveServerMetrics()).hasSize(1);
      assertThat(admin.getRegionServers()).hasSize(1);
    }
  }

  @BothTargets
  void batchesWithMixedActionsAndPerActionErrors(Connection conn) throws Exception {
    TableName t = createTable(conn, "ab_batch", splits("m"));
    try (Table table = conn.getTable(t)) {
      table.put(new Put(b("b")).addColumn(CF, Q, b("before")));
      List<Row> actions = new ArrayList<>();
      actions.add(new Put(b("a")).addColumn(CF, Q, b("1")));
      actions.add(new Put(b("x")).addColumn(CF, Q, b("2")));
      actions.add(new Get(b("b")));
      actions.add(new Delete(b("b")));
      actions.add(new Put(b("y")).addColumn(b("nope"), Q, b("3")));
      Object[] results = new Object[actions.size()];
      assertThatThrownBy(() -> table.batch(actions, results)).isInstanceOf(RetriesExhaustedWithDetailsException.class);
      // The Get does not see the Delete later in the same batch.
      assertThat(Bytes.toString(((Result) results[2]).getValue(CF, Q))).isEqualTo("before");
      assertThat(results[4]).isInstanceOf(NoSuchColumnFamilyException.class);
      assertThat(Bytes.toString(table.get(new Get(b("x"))).getValue(CF, Q))).isEqualTo("2");
      assertThat(table.exists(new Get(b("b")))).isFalse();

      table.mutateRow(RowMutations.of(List.of(new Put(b("r")).addColumn(CF, b("a"), b("1")),
          new Put(b("r")).addColumn(CF, b("b"), b("2")))));
      assertThat(table.get(new Get(b("r"))).size()).isEqualTo(2);
    }
  }

  @BothTargets
  void batchedPutsApplyBeforeALaterIncrementAndFailOneByOne(Connection conn) throws Exception {
    TableName t = createTable(conn, "ab_batch_order", splits("m"));
    try (Table table = conn.getTable(t)) {
      List<Row> actions = new ArrayList<>();
      actions.add(new Put(b("c")).addColumn(CF, Q, Bytes.toBytes(5L)));
      actions.add(new Put(b("d")).addColumn(CF, Q, b("1")));
      actions.add(new Put(b("e")).addColumn(b("nope"), Q, b("2")));
      actions.add(new org.apache.hadoop.hbase.client.Increment(b("c")).addColumn(CF, Q, 1));
      actions.add(new Put(b("f")).addColumn(CF, Q, b("3")));
      actions.add(new Delete(b("d")));
      Object[] results = new Object[actions.size()];
      assertThatThrownBy(() -> table.batch(actions, results)).isInstanceOf(RetriesExhaustedWithDetailsException.class);
      assertThat(results[2]).isInstanceOf(NoSuchColumnFamilyException.class);
      // The Puts before the Increment are applied before it runs.
      assertThat(Bytes.toLong(((Result) results[3]).getValue(CF, Q))).isEqualTo(6L);
      assertThat(Bytes.toLong(table.get(new Get(b("c"))).getValue(CF, Q))).isEqualTo(6L);
      assertThat(table.exists(new Get(b("d")))).isFalse();
      assertThat(table.exists(new Get(b("e")))).isFalse();
      assertThat(Bytes.toString(table.get(new Get(b("f"))).getValue(CF, Q))).isEqualTo("3");
    }
  }

  @BothTargets
  void multiGetsExistsDeletesAndBufferedMutator(Connection conn) throws Exception {
    TableName t = createTable(conn, "ab_multi", splits("m"));
    try (Table table = conn.getTable(t)) {
      try (BufferedMutator mutator = conn.getBufferedMutator(t)) {
        for (String row : List.of("a", "f", "n", "z")) {
          mutator.mutate(new Put(b(row)).addColumn(CF, Q, b("v-" + row)));
        }
      }
      Result[] got = table.get(List.of(new Get(b("z")), new Get(b("missing")), new Get(b("a"))));
      assertThat(got).extracting(r -> r.isEmpty() ? null : Bytes.toString(r.getValue(CF, Q)))
          .containsExactly("v-z", null, "v-a");
      List<Delete> deletes = new ArrayList<>(List.of(new Delete(b("a")), new Delete(b("z"))));
      table.delete(deletes);
      assertThat(count(table)).isEqualTo(2);
    }
  }

  @BothTargets
  void existsForAListOfGets(Connection conn) throws Exception {
    TableName t = createTable(conn, "ab_exists", splits("m"));
    try (Table table = conn.getTable(t)) {
      table.put(List.of(new Put(b("f")).addColumn(CF, Q, b("1")), new Put(b("n")).addColumn(CF, Q, b("2"))));
      assertThat(table.exists(List.of(new Get(b("f")), new Get(b("g")), new Get(b("n"))))).containsExactly(true, false, true);
    }
  }

  @BothTargets
  void checkAndMutateAndAppend(Connection conn) throws IOException {
    TableName t = createTable(conn, "ab_cam");
    try (Table table = conn.getTable(t)) {
      byte[] row = b("r");
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(CF, Q)
          .build(new Put(row).addColumn(CF, Q, b("5")))).isSuccess()).isTrue();
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(CF, Q)
          .build(new Put(row).addColumn(CF, Q, b("6")))).isSuccess()).isFalse();
      // HBase compares "operand OP stored": 3 < 5 holds.
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(CF, Q, CompareOperator.LESS, b("3"))
          .build(new Put(row).addColumn(CF, b("hit"), b("y")))).isSuccess()).isTrue();
      assertThat(table.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(CF, Q, b("5"))
          .build(RowMutations.of(List.of(new Delete(row).addColumns(CF, b("hit")),
              new Put(row).addColumn(CF, b("both"), b("z")))))).isSuccess()).isTrue();
      Result r = table.get(new Get(row));
      assertThat(r.getValue(CF, b("hit"))).isNull();
      assertThat(Bytes.toString(r.getValue(CF, b("both")))).isEqualTo("z");

      Result appended = table.append(new Append(row).addColumn(CF, b("s"), b("ab")));
      assertThat(Bytes.toString(appended.getValue(CF, b("s")))).isEqualTo("ab");
      appended = table.append(new Append(row).addColumn(CF, b("s"), b("cd")));
      assertThat(Bytes.toString(appended.getValue(CF, b("s")))).isEqualTo("abcd");
    }
  }

  @BothTargets
  void asyncClientReadsAndWrites(ClusterTarget target, Connection conn) throws Exception {
    TableName t = createTable(conn, "ab_async", splits("m"));
    try (AsyncConnection async = ConnectionFactory.createAsyncConnection(target.clientConfiguration()).get()) {
      AsyncTable<?> table = async.getTable(t);
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        puts.add(new Put(b(String.format("k%03d", i))).addColumn(CF, Q, Bytes.toBytes(i)));
      }
      table.putAll(puts).get();
      assertThat(Bytes.toInt(table.get(new Get(b("k042"))).get().getValue(CF, Q))).isEqualTo(42);
      assertThat(table.scanAll(new Scan()).get()).hasSize(100);
      assertThat(table.scanAll(new Scan().withStartRow(b("k090")).setReversed(true).setLimit(5)).get())
          .extracting(r -> Bytes.toString(r.getRow())).containsExactly("k090", "k089", "k088", "k087", "k086");
      assertThat(async.getAdmin().tableExists(t).get()).isTrue();
    }
  }
}
