package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static io.basalt.it.Fixtures.Q;
import static io.basalt.it.Fixtures.b;
import static io.basalt.it.Fixtures.createTable;
import static io.basalt.it.Fixtures.splits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.target.BothTargets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException;
import org.apache.hadoop.hbase.snapshot.SnapshotExistsException;
import org.junit.jupiter.api.Timeout;

/** Snapshots through the HBase client: take, list, clone, restore, delete, and HBase's refusals, on both targets. */
@Timeout(300)
class SnapshotTest {
  private static void load(Table t, int from, int to, String value) throws IOException {
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      puts.add(new Put(b(String.format("r%04d", i))).addColumn(CF, Q, b(value + i)));
    }
    t.put(puts);
  }

  private static List<String> contents(Table t) throws IOException {
    List<String> out = new ArrayList<>();
    Fixtures.scan(t, new Scan()).forEach(r -> out.add(Fixtures.s(r.getRow()) + "=" + Fixtures.s(r.getValue(CF, Q))));
    return out;
  }

  private static void dropIfExists(Admin admin, TableName t) throws IOException {
    if (admin.tableExists(t)) {
      if (admin.isTableEnabled(t)) {
        admin.disableTable(t);
      }
      admin.deleteTable(t);
    }
  }

  private static void deleteSnapshotsLike(Admin admin, String prefix) throws IOException {
    for (SnapshotDescription d : admin.listSnapshots(Pattern.compile(Pattern.quote(prefix) + ".*"))) {
      admin.deleteSnapshot(d.getName());
    }
  }

  @BothTargets
  void aCloneHoldsTheTableAsItWasWhenTheSnapshotWasTaken(Connection conn) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      deleteSnapshotsLike(admin, "snap_clone");
      TableName clone = TableName.valueOf("snap_clone_copy");
      dropIfExists(admin, clone);
      TableName t = createTable(conn, "snap_clone_src", splits("r0100", "r0200"));
      try (Table table = conn.getTable(t)) {
        load(table, 0, 300, "v");
        List<String> before = contents(table);
        admin.snapshot("snap_clone_1", t);
        // The source serves on: later writes and deletes reach neither the snapshot nor its clone.
        load(table, 300, 310, "late");
        table.delete(new Delete(b("r0005")));
        admin.cloneSnapshot("snap_clone_1", clone);
        try (Table copy = conn.getTable(clone)) {
          assertThat(contents(copy)).isEqualTo(before);
          assertThat(admin.getRegions(clone)).hasSize(3);
          assertThat(admin.isTableEnabled(clone)).isTrue();
          copy.put(new Put(b("only-in-clone")).addColumn(CF, Q, b("x")));
        }
        assertThat(contents(table)).hasSize(309).doesNotContain("only-in-clone=x");
        assertThat(admin.getDescriptor(clone).getColumnFamily(CF).getMaxVersions())
            .isEqualTo(admin.getDescriptor(t).getColumnFamily(CF).getMaxVersions());
      }
      List<SnapshotDescription> listed = admin.listSnapshots(Pattern.compile("snap_clone_.*"));
      assertThat(listed).extracting(SnapshotDescription::getName).containsExactly("snap_clone_1");
      assertThat(listed.get(0).getTableName()).isEqualTo(t);
      assertThat(listed.get(0).getCreationTime()).isPositive();
      assertThat(admin.isSnapshotFinished(listed.get(0))).isTrue();
      admin.deleteSnapshot("snap_clone_1");
      assertThat(admin.listSnapshots(Pattern.compile("snap_clone_.*"))).isEmpty();
      try (Table copy = conn.getTable(clone)) {
        assertThat(contents(copy)).as("a clone outlives its snapshot").hasSize(301);
      }
    }
  }

  @BothTargets
  void aRestoreBringsADisabledTableBackToTheSnapshot(Connection conn) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      deleteSnapshotsLike(admin, "snap_restore");
      TableName t = createTable(conn, "snap_restore_src", splits("r0050"));
      try (Table table = conn.getTable(t)) {
        load(table, 0, 100, "v");
        List<String> before = contents(table);
        admin.snapshot("snap_restore_1", t);
        load(table, 0, 100, "changed");
        table.delete(new Delete(b("r0001")));
        assertThatThrownBy(() -> admin.restoreSnapshot("snap_restore_1")).isInstanceOf(TableNotDisabledException.class);
        admin.disableTable(t);
        admin.restoreSnapshot("snap_restore_1");
        assertThat(admin.isTableDisabled(t)).as("a restored table stays disabled").isTrue();
        admin.enableTable(t);
        assertThat(contents(table)).isEqualTo(before);
        table.put(new Put(b("r9999")).addColumn(CF, Q, b("after")));
        assertThat(contents(table)).hasSize(101);
      }
      admin.deleteSnapshot("snap_restore_1");
    }
  }

  @BothTargets
  void snapshotErrorsAreHBases(Connection conn) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      deleteSnapshotsLike(admin, "snap_err");
      TableName t = createTable(conn, "snap_err_src");
      admin.snapshot("snap_err_1", t);
      assertThatThrownBy(() -> admin.snapshot("snap_err_1", t)).isInstanceOf(SnapshotExistsException.class);
      assertThatThrownBy(() -> admin.cloneSnapshot("snap_err_missing", TableName.valueOf("snap_err_x")))
          .isInstanceOf(SnapshotDoesNotExistException.class);
      assertThatThrownBy(() -> admin.cloneSnapshot("snap_err_1", t)).isInstanceOf(TableExistsException.class);
      assertThatThrownBy(() -> admin.deleteSnapshot("snap_err_missing")).isInstanceOf(SnapshotDoesNotExistException.class);
      assertThatThrownBy(() -> admin.snapshot("snap_err_2", TableName.valueOf("snap_err_no_table")))
          .isInstanceOf(org.apache.hadoop.hbase.snapshot.SnapshotCreationException.class);
      assertThatThrownBy(() -> admin.snapshot("bad name", t)).isInstanceOf(IllegalArgumentException.class);
      admin.deleteSnapshot("snap_err_1");
    }
  }
}
