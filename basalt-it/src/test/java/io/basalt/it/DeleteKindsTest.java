package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static io.basalt.it.Fixtures.Q;
import static io.basalt.it.Fixtures.b;
import static io.basalt.it.Fixtures.cells;
import static io.basalt.it.Fixtures.createTable;
import static io.basalt.it.Fixtures.family;
import static io.basalt.it.Fixtures.timestamps;
import static io.basalt.it.Fixtures.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.BothTargets;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Timeout;

/**
 * The four delete kinds (Delete = one version, DeleteColumn = a column up to a timestamp, DeleteFamily = a family
 * up to a timestamp, DeleteFamilyVersion = a family at exactly one timestamp), and HBase's masking: a delete
 * marker hides every put at or below its timestamp, including puts written after it.
 */
@Timeout(120)
class DeleteKindsTest {
  private static final byte[] CF2 = b("cf2");
  private static final byte[] Q2 = b("q2");

  /** Row r: cf:q and cf:q2 at ts 1,2,3; cf2:q at ts 1,2,3; in families keeping 5 versions. */
  private static Table threeVersions(Connection conn, String name) throws IOException {
    TableName t = createTable(conn, name, family("cf", 5), family("cf2", 5));
    Table table = conn.getTable(t);
    for (long ts = 1; ts <= 3; ts++) {
      table.put(new Put(b("r")).addColumn(CF, Q, ts, b("q@" + ts)).addColumn(CF, Q2, ts, b("q2@" + ts))
          .addColumn(CF2, Q, ts, b("f2@" + ts)));
    }
    return table;
  }

  private static List<Long> versionsOf(Table table, byte[] family, byte[] qualifier) throws IOException {
    return timestamps(table.get(new Get(b("r")).readAllVersions()), family, qualifier);
  }

  @BothTargets
  void deleteOneVersionExactOrLatest(Connection conn) throws IOException {
    try (Table table = threeVersions(conn, "dk_version")) {
      table.delete(new Delete(b("r")).addColumn(CF, Q, 2L));
      assertThat(versionsOf(table, CF, Q)).containsExactly(3L, 1L);
      // Without a timestamp, addColumn deletes the newest version only.
      table.delete(new Delete(b("r")).addColumn(CF, Q));
      assertThat(versionsOf(table, CF, Q)).containsExactly(1L);
      assertThat(versionsOf(table, CF, Q2)).containsExactly(3L, 2L, 1L);
      // Deleting a version that does not exist changes nothing.
      table.delete(new Delete(b("r")).addColumn(CF, Q2, 99L));
      assertThat(versionsOf(table, CF, Q2)).containsExactly(3L, 2L, 1L);
    }
  }

  @BothTargets
  void deleteColumnUpToATimestamp(Connection conn) throws IOException {
    try (Table table = threeVersions(conn, "dk_column")) {
      table.delete(new Delete(b("r")).addColumns(CF, Q2, 2L));
      assertThat(versionsOf(table, CF, Q2)).containsExactly(3L);
      table.delete(new Delete(b("r")).addColumns(CF, Q));
      assertThat(versionsOf(table, CF, Q)).isEmpty();
      assertThat(versionsOf(table, CF2, Q)).containsExactly(3L, 2L, 1L);
    }
  }

  @BothTargets
  void deleteFamilyUpToATimestamp(Connection conn) throws IOException {
    try (Table table = threeVersions(conn, "dk_family")) {
      table.delete(new Delete(b("r")).addFamily(CF, 2L));
      Result r = table.get(new Get(b("r")).readAllVersions());
      assertThat(timestamps(r, CF, Q)).containsExactly(3L);
      assertThat(timestamps(r, CF, Q2)).containsExactly(3L);
      assertThat(timestamps(r, CF2, Q)).containsExactly(3L, 2L, 1L);
      table.delete(new Delete(b("r")).addFamily(CF2));
      assertThat(table.get(new Get(b("r")).addFamily(CF2)).isEmpty()).isTrue();
    }
  }

  @BothTargets
  void deleteFamilyVersionHitsOneTimestampInEveryColumn(Connection conn) throws IOException {
    try (Table table = threeVersions(conn, "dk_family_version")) {
      table.delete(new Delete(b("r")).addFamilyVersion(CF, 2L));
      Result r = table.get(new Get(b("r")).readAllVersions());
      assertThat(timestamps(r, CF, Q)).containsExactly(3L, 1L);
      assertThat(timestamps(r, CF, Q2)).containsExactly(3L, 1L);
      assertThat(timestamps(r, CF2, Q)).containsExactly(3L, 2L, 1L);
    }
  }

  @BothTargets
  void wholeRowDeletesWithAndWithoutTimestamp(Connection conn) throws IOException {
    try (Table table = threeVersions(conn, "dk_row")) {
      table.delete(new Delete(b("r"), 2L));
      Result r = table.get(new Get(b("r")).readAllVersions());
      assertThat(cells(r)).containsExactly("cf:q=q@3", "cf:q2=q2@3", "cf2:q=f2@3");
      table.delete(new Delete(b("r")));
      assertThat(table.get(new Get(b("r"))).isEmpty()).isTrue();
      assertThat(table.exists(new Get(b("r")))).isFalse();
      assertThat(Fixtures.rows(table, new Scan())).isEmpty();
    }
  }

  @BothTargets
  void aPutOlderThanADeleteStaysMasked(Connection conn) throws IOException {
    try (Table table = threeVersions(conn, "dk_masked")) {
      table.delete(new Delete(b("r")));
      // Written after the delete, but with a timestamp below the marker's: HBase keeps it hidden.
      table.put(new Put(b("r")).addColumn(CF, Q, 1L, b("late-but-old")));
      assertThat(table.get(new Get(b("r"))).isEmpty()).isTrue();
      assertThat(Fixtures.rows(table, new Scan())).isEmpty();
      // A put newer than the marker shows.
      long future = System.currentTimeMillis() + 3_600_000L;
      table.put(new Put(b("r")).addColumn(CF, Q, future, b("new")));
      assertThat(values(table.get(new Get(b("r")).readAllVersions()), CF, Q)).containsExactly("new");

      // On a fresh row, a column marker at an explicit timestamp masks a later put at exactly that timestamp.
      byte[] r2 = b("r2");
      table.delete(new Delete(r2).addColumns(CF, Q2, 10L));
      table.put(new Put(r2).addColumn(CF, Q2, 10L, b("at-marker")));
      table.put(new Put(r2).addColumn(CF, Q2, 11L, b("above-marker")));
      assertThat(values(table.get(new Get(r2).readAllVersions()), CF, Q2)).containsExactly("above-marker");

      // And a version marker masks only its own timestamp, even for a put rewritten at it.
      table.delete(new Delete(r2).addColumn(CF2, Q, 20L));
      table.put(new Put(r2).addColumn(CF2, Q, 20L, b("v20")));
      table.put(new Put(r2).addColumn(CF2, Q, 19L, b("v19")));
      assertThat(values(table.get(new Get(r2).addFamily(CF2).readAllVersions()), CF2, Q)).containsExactly("v19");
    }
  }
}
