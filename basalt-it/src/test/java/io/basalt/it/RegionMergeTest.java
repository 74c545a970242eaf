package io.basalt.it;

import static io.basalt.it.Fixtures.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.BothTargets;
import io.basalt.it.target.ClusterTarget;
import io.basalt.it.target.Targets;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.exceptions.MergeRegionException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Admin.mergeRegionsAsync} through the unmodified client, against Basalt and HBase 2.6.4: what a merge leaves
 * in meta and serves, and the refusals' exception classes and messages.
 */
@Timeout(300)
class RegionMergeTest {
  private static final byte[] CF = b("cf");

  @BothTargets
  void twoAdjacentRegionsMergeIntoOneThatServesEveryRowAndTakesWrites(ClusterTarget target, Connection conn) throws Exception {
    TableName name = Fixtures.createTable(conn, "rm_adjacent", Fixtures.splits("m"), Fixtures.family("cf", 3));
    try (Table t = conn.getTable(name); Admin admin = conn.getAdmin()) {
      for (int i = 0; i < 100; i++) {
        t.put(new Put(b(String.format("a%03d", i))).addColumn(CF, b("q"), b("low" + i)));
        t.put(new Put(b(String.format("n%03d", i))).addColumn(CF, b("q"), b("high" + i)));
      }
      List<RegionInfo> before = admin.getRegions(name);
      assertThat(before).hasSize(2);
      admin.mergeRegionsAsync(new byte[][] {before.get(1).getEncodedNameAsBytes(),
          before.get(0).getEncodedNameAsBytes()}, false).get(120, TimeUnit.SECONDS);

      List<RegionInfo> after = admin.getRegions(name);
      assertThat(after).hasSize(1);
      RegionInfo merged = after.get(0);
      assertThat(merged.getStartKey()).isEmpty();
      assertThat(merged.getEndKey()).isEmpty();
      assertThat(merged.getRegionId()).isGreaterThan(Math.max(before.get(0).getRegionId(),
          before.get(1).getRegionId()));
      assertThat(merged.isSplit()).isFalse();
      try (RegionLocator locator = conn.getRegionLocator(name)) {
        List<HRegionLocation> locations = locator.getAllRegionLocations();
        assertThat(locations).hasSize(1);
        assertThat(locations.get(0).getRegion()).isEqualTo(merged);
        assertThat(locations.get(0).getServerName()).isNotNull();
      }
      assertThat(Fixtures.rows(t, new Scan())).hasSize(200);
      for (int i = 0; i < 100; i += 7) {
        assertThat(Bytes.toString(t.get(new Get(b(String.format("a%03d", i)))).getValue(CF, b("q"))))
            .isEqualTo("low" + i);
        assertThat(Bytes.toString(t.get(new Get(b(String.format("n%03d", i)))).getValue(CF, b("q"))))
            .isEqualTo("high" + i);
      }
      t.put(new Put(b("a000")).addColumn(CF, b("q"), b("after")));
      t.put(new Put(b("zzz")).addColumn(CF, b("q"), b("new")));
      assertThat(Fixtures.values(t.get(new Get(b("a000")).readVersions(3)), CF, b("q")))
          .containsExactly("after", "low0");
      assertThat(Fixtures.rows(t, new Scan())).hasSize(201);
      if (target.name().equals(Targets.BASALT)) {
        // A merged region splits again at once (HBase waits for its janitor to clean the merge references first).
        admin.splitRegionAsync(merged.getRegionName(), b("m")).get(120, TimeUnit.SECONDS);
        assertThat(admin.getRegions(name)).hasSize(2);
        assertThat(Fixtures.rows(t, new Scan())).hasSize(201);
      }
    }
  }

  @BothTargets
  void mergesHBaseRefusesAreRefusedWithItsExceptionsAndMessages(ClusterTarget target, Connection conn)
      throws Exception {
    TableName name = Fixtures.createTable(conn, "rm_refused", Fixtures.splits("g", "p"), Fixtures.family("cf", 1));
    try (Table t = conn.getTable(name); Admin admin = conn.getAdmin()) {
      t.put(new Put(b("a")).addColumn(CF, b("q"), b("1")));
      t.put(new Put(b("z")).addColumn(CF, b("q"), b("2")));
      List<RegionInfo> regions = admin.getRegions(name);
      assertThat(regions).hasSize(3);
      byte[] first = regions.get(0).getEncodedNameAsBytes();
      byte[] last = regions.get(2).getEncodedNameAsBytes();

      Throwable notAdjacent = failure(admin, new byte[][] {first, last}, false);
      assertThat(notAdjacent).isInstanceOf(MergeRegionException.class)
          .hasMessageContaining("Unable to merge non-adjacent or non-overlapping regions")
          .hasMessageContaining("when force=false");

      Throwable itself = failure(admin, new byte[][] {first, first}, false);
      assertThat(itself).isInstanceOf(MergeRegionException.class)
          .hasMessageContaining("Duplicate regions specified; cannot merge a region to itself");

      if (target.name().equals(Targets.BASALT)) {
        // HBase merges them into a region overlapping the one between; Basalt refuses, naming the gap.
        assertThat(failure(admin, new byte[][] {first, last}, true)).isInstanceOf(DoNotRetryIOException.class)
            .hasMessageContaining("not supported by Basalt");
      }
      admin.modifyTable(org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
          .setMergeEnabled(false).build());
      assertThat(failure(admin, new byte[][] {first, regions.get(1).getEncodedNameAsBytes()}, false))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("failed as region merge is disabled for the table");
      assertThat(admin.getRegions(name)).hasSize(3);
      assertThat(Fixtures.rows(t, new Scan())).hasSize(2);
    }
  }

  private static Throwable failure(Admin admin, byte[][] regions, boolean forcible) {
    try {
      admin.mergeRegionsAsync(regions, forcible).get(120, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      return e;
    }
    throw new AssertionError("the merge of " + regions.length + " regions was not refused");
  }
}
