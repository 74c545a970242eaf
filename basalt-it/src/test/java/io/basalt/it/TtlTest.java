package io.basalt.it;

import static io.basalt.it.Fixtures.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.BothTargets;
import io.basalt.it.target.ClusterTarget;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.junit.jupiter.api.Timeout;

/**
 * TTL, MIN_VERSIONS and KEEP_DELETED_CELLS through the client. Cells written with old timestamps stand in for
 * a controllable clock (a cell's age is now minus its timestamp); each answer is checked as written, after a
 * flush and after a major compaction, which is where HBase's answers could move.
 */
@Timeout(180)
class TtlTest {
  private static final byte[] CF = b("cf");
  private static final byte[] Q = b("q");

  private static TableName create(Connection conn, String name, ColumnFamilyDescriptorBuilder cf) throws IOException {
    return Fixtures.createTable(conn, name, cf.build());
  }

  private static ColumnFamilyDescriptorBuilder family(int versions) {
    return ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(versions);
  }

  /** Flushes, then major-compacts and waits (bounded) until the compaction is over. */
  static void flushAndMajorCompact(Connection conn, TableName t) throws IOException, InterruptedException {
    try (Admin admin = conn.getAdmin()) {
      admin.flush(t);
      admin.majorCompact(t);
      Thread.sleep(300); // a queued compaction may not show yet
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (admin.getCompactionState(t) != CompactionState.NONE && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(admin.getCompactionState(t)).isEqualTo(CompactionState.NONE);
    }
  }

  private interface Check {
    void run() throws IOException;
  }

  /** The same answer as written, after a flush, and after a major compaction. */
  private static void always(Connection conn, TableName t, Check check) throws Exception {
    check.run();
    try (Admin admin = conn.getAdmin()) {
      admin.flush(t);
    }
    check.run();
    flushAndMajorCompact(conn, t);
    check.run();
  }

  @BothTargets
  void cellsOlderThanTheTtlAreGone(Connection conn) throws Exception {
    TableName name = create(conn, "ttl_basic", family(3).setTimeToLive(60));
    try (Table t = conn.getTable(name)) {
      long now = System.currentTimeMillis();
      t.put(new Put(b("old")).addColumn(CF, Q, now - 120_000, b("expired")));
      t.put(new Put(b("mixed")).addColumn(CF, Q, now - 120_000, b("expired")).addColumn(CF, Q, now - 1_000, b("live")));
      t.put(new Put(b("new")).addColumn(CF, Q, b("live")));
      always(conn, name, () -> {
        assertThat(t.get(new Get(b("old"))).isEmpty()).isTrue();
        assertThat(Fixtures.values(t.get(new Get(b("mixed")).readAllVersions()), CF, Q)).containsExactly("live");
        assertThat(Fixtures.rows(t, new Scan())).containsExactly("mixed", "new");
        // A time range naming only the expired version finds nothing.
        assertThat(t.get(new Get(b("mixed")).setTimeRange(0, now - 60_000)).isEmpty()).isTrue();
      });
    }
  }

  @BothTargets
  void aTtlMeasuredInSecondsExpiresWhileYouWait(Connection conn) throws Exception {
    TableName name = create(conn, "ttl_wait", family(1).setTimeToLive(2));
    try (Table t = conn.getTable(name)) {
      t.put(new Put(b("r")).addColumn(CF, Q, b("v")));
      assertThat(t.get(new Get(b("r"))).isEmpty()).isFalse();
      Thread.sleep(2_500);
      assertThat(t.get(new Get(b("r"))).isEmpty()).isTrue();
      assertThat(Fixtures.rows(t, new Scan())).isEmpty();
    }
  }

  @BothTargets
  void minVersionsKeepsTheNewestExpiredVersions(Connection conn) throws Exception {
    TableName name = create(conn, "ttl_min_versions", family(5).setTimeToLive(60).setMinVersions(2));
    try (Table t = conn.getTable(name)) {
      long now = System.currentTimeMillis();
      for (int i = 1; i <= 3; i++) {
        t.put(new Put(b("r")).addColumn(CF, Q, now - 400_000 + i * 100_000, b("v" + i))); // all older than the TTL
      }
      always(conn, name, () -> {
        assertThat(Fixtures.values(t.get(new Get(b("r")).readAllVersions()), CF, Q)).containsExactly("v3", "v2");
        assertThat(Fixtures.values(t.get(new Get(b("r"))), CF, Q)).containsExactly("v3");
      });
      t.put(new Put(b("r")).addColumn(CF, Q, b("v4")));
      always(conn, name, () ->
          assertThat(Fixtures.values(t.get(new Get(b("r")).readAllVersions()), CF, Q)).containsExactly("v4", "v3"));
    }
  }

  @BothTargets
  void keepDeletedCellsLetsTimeRangesBeforeTheDeleteSeeTheData(Connection conn) throws Exception {
    for (KeepDeletedCells kdc : KeepDeletedCells.values()) {
      TableName name = create(conn, "ttl_kdc_" + kdc.name().toLowerCase(),
          family(5).setKeepDeletedCells(kdc).setTimeToLive(3600));
      try (Table t = conn.getTable(name)) {
        long now = System.currentTimeMillis();
        t.put(new Put(b("r")).addColumn(CF, Q, now - 3_000, b("v1")).addColumn(CF, Q, now - 2_000, b("v2")));
        t.delete(new Delete(b("r")).addColumns(CF, Q, now - 1_000));
        boolean kept = kdc != KeepDeletedCells.FALSE;
        always(conn, name, () -> {
          assertThat(t.get(new Get(b("r"))).isEmpty()).as("%s", kdc).isTrue();
          Result before = t.get(new Get(b("r")).readAllVersions().setTimeRange(0, now - 1_500));
          assertThat(Fixtures.values(before, CF, Q)).as("%s", kdc)
              .isEqualTo(kept ? List.of("v2", "v1") : List.of());
          // The marker itself is inside this range: masked either way.
          assertThat(t.get(new Get(b("r")).setTimeRange(0, now)).isEmpty()).as("%s", kdc).isTrue();
        });
      }
    }
  }

  @BothTargets
  void keepDeletedCellsTtlDropsDeletedCellsOnceExpired(Connection conn) throws Exception {
    TableName name = create(conn, "ttl_kdc_expiry", family(5).setKeepDeletedCells(KeepDeletedCells.TTL).setTimeToLive(3));
    try (Table t = conn.getTable(name)) {
      long now = System.currentTimeMillis();
      t.put(new Put(b("r")).addColumn(CF, Q, now - 500, b("v")));
      t.delete(new Delete(b("r")).addColumns(CF, Q, now - 100));
      assertThat(Fixtures.values(t.get(new Get(b("r")).setTimeRange(0, now - 300)), CF, Q)).containsExactly("v");
      Thread.sleep(3_000);
      always(conn, name, () -> assertThat(t.get(new Get(b("r")).setTimeRange(0, now - 300)).isEmpty()).isTrue());
    }
  }

  /**
   * VERSIONS=1, two puts, then a delete of the newest version. HBase keeps the older version in its memstore
   * until a flush, and a flush (or compaction) only drops it if the newer one is not yet deleted: so HBase
   * answers the older version unless a flush ran between the second put and the delete. Basalt trims versions
   * as it writes, so it always answers as HBase does with that flush.
   */
  @BothTargets
  void deletingTheNewestOfOneVersionDependsOnHBaseFlushes(ClusterTarget target, Connection conn) throws Exception {
    TableName name = create(conn, "ttl_versions_flush", family(1));
    try (Table t = conn.getTable(name); Admin admin = conn.getAdmin()) {
      t.put(new Put(b("flushed")).addColumn(CF, Q, 100, b("v1")));
      t.put(new Put(b("flushed")).addColumn(CF, Q, 200, b("v2")));
      admin.flush(name);
      t.delete(new Delete(b("flushed")).addColumn(CF, Q, 200));
      assertThat(t.get(new Get(b("flushed"))).isEmpty()).isTrue();

      t.put(new Put(b("unflushed")).addColumn(CF, Q, 100, b("v1")));
      t.put(new Put(b("unflushed")).addColumn(CF, Q, 200, b("v2")));
      t.delete(new Delete(b("unflushed")).addColumn(CF, Q, 200));
      List<String> expected = target.name().equals("hbase") ? List.of("v1") : List.of();
      always(conn, name, () -> assertThat(Fixtures.values(t.get(new Get(b("unflushed"))), CF, Q)).isEqualTo(expected));
    }
  }

  /**
   * A put older than an earlier column delete. HBase masks it while the delete marker exists and a major
   * compaction purges the marker (KEEP_DELETED_CELLS false), after which such a put shows. Basalt keeps a marker
   * for as long as it can mask something, so it always masks: HBase's answer before a major compaction.
   */
  @BothTargets
  void aPutOlderThanAPurgedDeleteDependsOnHBaseMajorCompaction(ClusterTarget target, Connection conn) throws Exception {
    TableName name = create(conn, "ttl_marker_purge", family(3));
    try (Table t = conn.getTable(name)) {
      t.put(new Put(b("r")).addColumn(CF, Q, 100, b("v1")));
      t.delete(new Delete(b("r")).addColumns(CF, Q, 200));
      t.put(new Put(b("r")).addColumn(CF, Q, 150, b("late")));
      assertThat(t.get(new Get(b("r"))).isEmpty()).isTrue();
      flushAndMajorCompact(conn, name);
      t.put(new Put(b("r")).addColumn(CF, Q, 150, b("after")));
      List<String> expected = target.name().equals("hbase") ? List.of("after") : List.of();
      assertThat(Fixtures.values(t.get(new Get(b("r"))), CF, Q)).isEqualTo(expected);
    }
  }
}
