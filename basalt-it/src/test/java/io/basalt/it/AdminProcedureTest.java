package io.basalt.it;

import static io.basalt.it.Fixtures.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.target.BothTargets;
import io.basalt.it.target.ClusterTarget;
import io.basalt.it.target.Targets;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Admin calls whose effect must be real: flush and compaction, the procedures clients wait on, and what a
 * table descriptor or a mutation may ask that Basalt refuses rather than ignores (coprocessors, per-cell TTL).
 */
@Timeout(180)
class AdminProcedureTest {
  private static final byte[] CF = b("cf");
  private static final String NO_SUCH_COPROCESSOR = "org.example.NoSuchRegionObserver";

  @BothTargets
  void aTableWithACoprocessorIsRefusedAsAnUnloadableClass(Connection conn) throws IOException {
    TableName name = TableName.valueOf("ap_coprocessor");
    try (Admin admin = conn.getAdmin()) {
      if (admin.tableExists(name)) {
        admin.disableTable(name);
        admin.deleteTable(name);
      }
      TableDescriptorBuilder desc = TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(Fixtures.family("cf", 1)).setCoprocessor(NO_SUCH_COPROCESSOR);
      assertThatThrownBy(() -> admin.createTable(desc.build())).isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Class " + NO_SUCH_COPROCESSOR + " cannot be loaded");
      assertThat(admin.tableExists(name)).isFalse();
      Fixtures.createTable(conn, name.getNameAsString(), Fixtures.family("cf", 1));
      assertThatThrownBy(() -> admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
          .setCoprocessor(NO_SUCH_COPROCESSOR).build())).isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Class " + NO_SUCH_COPROCESSOR + " cannot be loaded");
      assertThat(admin.getDescriptor(name).getCoprocessorDescriptors()).isEmpty();
    }
  }

  @BothTargets
  void flushAndCompactionsRunAndFinish(Connection conn) throws Exception {
    TableName name = Fixtures.createTable(conn, "ap_flush_compact", Fixtures.family("cf", 1));
    try (Table t = conn.getTable(name); Admin admin = conn.getAdmin()) {
      for (int i = 0; i < 200; i++) {
        t.put(new Put(b("r" + i)).addColumn(CF, b("q"), b("v" + i)));
      }
      admin.flush(name);
      admin.compact(name);
      TtlTest.flushAndMajorCompact(conn, name);
      assertThat(admin.getCompactionState(name)).isEqualTo(CompactionState.NONE);
      assertThat(Fixtures.rows(t, new org.apache.hadoop.hbase.client.Scan())).hasSize(200);
      assertThatThrownBy(() -> admin.compact(name, b("nope"))).isInstanceOf(IOException.class)
          .hasMessageContaining("nope");
    }
  }

  @BothTargets
  void theTableFlushProcedureRunsAndReportsDone(Connection conn) throws IOException {
    TableName name = Fixtures.createTable(conn, "ap_flush_proc", Fixtures.family("cf", 1));
    try (Table t = conn.getTable(name); Admin admin = conn.getAdmin()) {
      t.put(new Put(b("r")).addColumn(CF, b("q"), b("v")));
      admin.execProcedure("flush-table-proc", name.getNameAsString(), Map.of());
      assertThat(admin.isProcedureFinished("flush-table-proc", name.getNameAsString(), Map.of())).isTrue();
      assertThatThrownBy(() -> admin.execProcedure("no-such-proc", name.getNameAsString(), Map.of()))
          .isInstanceOf(DoNotRetryIOException.class).hasMessageContaining("The procedure is not registered: no-such-proc");
      assertThat(t.get(new Get(b("r"))).isEmpty()).isFalse();
    }
  }

  @BothTargets
  void aSplitProcedureReturnsOnceTheDaughtersServe(Connection conn) throws Exception {
    TableName name = Fixtures.createTable(conn, "ap_split_wait", Fixtures.family("cf", 1));
    try (Table t = conn.getTable(name); Admin admin = conn.getAdmin()) {
      for (int i = 0; i < 20; i++) {
        t.put(new Put(b(String.format("r%02d", i))).addColumn(CF, b("q"), b("v")));
      }
      // Admin.split does not wait (in HBase either); the procedure future does, on GetProcedureResult.
      byte[] region = admin.getRegions(name).get(0).getRegionName();
      admin.splitRegionAsync(region, b("r10")).get(60, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(admin.getRegions(name)).hasSize(2);
      assertThat(Fixtures.rows(t, new org.apache.hadoop.hbase.client.Scan())).hasSize(20);
    }
  }

  /** HBase keeps a per-cell TTL; Basalt cannot store one and refuses it rather than keeping the cell forever. */
  @BothTargets
  void aPerCellTtlExpiresInHBaseAndIsRefusedByBasalt(ClusterTarget target, Connection conn) throws Exception {
    TableName name = Fixtures.createTable(conn, "ap_cell_ttl", Fixtures.family("cf", 1));
    try (Table t = conn.getTable(name)) {
      Put put = new Put(b("r")).addColumn(CF, b("q"), b("v"));
      put.setTTL(1_000);
      if (target.name().equals(Targets.HBASE)) {
        t.put(put);
        assertThat(t.get(new Get(b("r"))).isEmpty()).isFalse();
        Thread.sleep(1_500);
        assertThat(t.get(new Get(b("r"))).isEmpty()).isTrue();
        return;
      }
      assertThatThrownBy(() -> t.put(put)).isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Per-cell TTL (Mutation.setTTL) is not supported by Basalt");
      Increment inc = new Increment(b("r")).addColumn(CF, b("n"), 1);
      inc.setTTL(1_000);
      assertThatThrownBy(() -> t.increment(inc)).isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Per-cell TTL");
      Append app = new Append(b("r")).addColumn(CF, b("s"), b("x"));
      app.setTTL(1_000);
      assertThatThrownBy(() -> t.append(app)).isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Per-cell TTL");
      assertThat(t.get(new Get(b("r"))).isEmpty()).isTrue();
    }
  }

  /**
   * Basalt only. The HBase client sends no cell tags with its default codec (KeyValueCodec) nor in protobuf
   * cells; a client set to the tag-carrying codec is refused when it connects, naming the codec.
   */
  @Test
  void aClientSendingTagsIsRefusedNamingTheCodec() throws IOException {
    Connection plain = Targets.connection(Targets.BASALT);
    TableName name = Fixtures.createTable(plain, "ap_tags", Fixtures.family("cf", 1));
    Configuration conf = Targets.get(Targets.BASALT).clientConfiguration();
    conf.set("hbase.client.rpc.codec", "org.apache.hadoop.hbase.codec.KeyValueCodecWithTags");
    conf.setInt("hbase.client.retries.number", 1);
    try (Connection tagged = ConnectionFactory.createConnection(conf); Table t = tagged.getTable(name)) {
      assertThatThrownBy(() -> t.put(new Put(b("r")).addColumn(CF, b("q"), b("v"))))
          .hasStackTraceContaining("Unsupported cell block codec org.apache.hadoop.hbase.codec.KeyValueCodecWithTags");
    }
  }
}
