package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static io.basalt.storage.je.GroupHarness.awaitPrimary;
import static io.basalt.storage.je.GroupHarness.expected;
import static io.basalt.storage.je.GroupHarness.member;
import static io.basalt.storage.je.GroupHarness.put;
import static io.basalt.storage.je.GroupHarness.row;
import static io.basalt.storage.je.GroupHarness.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.region.MergeReport;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replica groups of three members merged the way two replicated regions merge: both primaries seal their groups,
 * every member closes at its barrier, each member of the larger group clones its log, the founder refounds the group
 * from its clone and writes the smaller group's rows into it through its replicated environment, and the others join
 * with their clones (opening at the merged range before their logs hold it). Every member then holds every row, the
 * group takes writes and fails over, and the two old groups' directories are untouched.
 */
@Timeout(240)
class GroupMergeTest {
  private static final byte[] MID = of("row100");
  private static final KeyRange LOW = new KeyRange(Bytes.EMPTY, MID);
  private static final KeyRange HIGH = new KeyRange(MID, Bytes.EMPTY);

  @TempDir Path dir;
  private GroupHarness h;

  @BeforeEach
  void harness() {
    h = new GroupHarness(dir);
  }

  @AfterEach
  void close() {
    h.close();
  }

  private List<ReplicatedRegion> startGroup(String name, KeyRange range, int[] ports) {
    RegionDescriptor d = new RegionDescriptor(List.of(FamilySchema.of("f")), range);
    List<ReplicatedRegion> g = new ArrayList<>();
    g.add(h.track(h.engines.get(0).createGroup(h.memberDir(name, 0), d, member(name, ports, 0), RoleListener.NONE)));
    for (int i = 1; i < 3; i++) {
      g.add(h.track(h.engines.get(i).joinGroup(h.memberDir(name, i), member(name, ports, i), RoleListener.NONE)));
    }
    return g;
  }

  private static void sealAndClose(List<ReplicatedRegion> group) {
    long barrier = group.get(0).sealForSplit();
    for (ReplicatedRegion m : group) {
      assertThat(m.awaitLogPosition(barrier, Duration.ofSeconds(5))).isEqualTo(barrier);
    }
    group.get(1).close();
    group.get(2).close();
    group.get(0).close();
  }

  @Test
  void theSmallerGroupsRowsReachEveryMemberOfTheLargersRefoundedGroup() throws IOException {
    for (int i = 0; i < 3; i++) {
      h.engines.add(new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(16 << 20).withPurgeIntervalMillis(0)));
    }
    int[] ports = FreePorts.take(9);
    int[] lowPorts = {ports[0], ports[1], ports[2]};
    int[] highPorts = {ports[3], ports[4], ports[5]};
    int[] mergedPorts = {ports[6], ports[7], ports[8]};
    List<ReplicatedRegion> low = startGroup("low", LOW, lowPorts);
    List<ReplicatedRegion> high = startGroup("high", HIGH, highPorts);
    for (int i = 0; i < 100; i++) {
      put(low.get(0), row(i), "v" + i);
    }
    for (int i = 100; i < 140; i++) {
      put(high.get(0), row(i), "v" + i);
    }
    sealAndClose(low);
    sealAndClose(high);

    long start = System.nanoTime();
    for (int i = 0; i < 3; i++) {
      h.engines.get(i).cloneClosed(h.memberDir("low", i), h.memberDir("merged", i));
    }
    int founder = 1;
    GroupMembership founding = member("low", mergedPorts, founder);
    MergeReport copied = h.engines.get(founder).refoundMergedGroup(h.memberDir("merged", founder), founding,
        h.memberDir("high", founder), KeyRange.ALL);
    assertThat(copied.recordsCopied()).isEqualTo(40);
    // A repeat after a crash must neither reset the group again nor copy again.
    assertThat(h.engines.get(founder).refoundMergedGroup(h.memberDir("merged", founder), founding,
        h.memberDir("high", founder), KeyRange.ALL)).isNull();
    List<ReplicatedRegion> merged = new ArrayList<>(java.util.Arrays.asList(new ReplicatedRegion[3]));
    merged.set(founder, h.track(h.engines.get(founder).openMember(h.memberDir("merged", founder), founding,
        RoleListener.NONE, KeyRange.ALL)));
    for (int i = 0; i < 3; i++) {
      if (i != founder) {
        // Its clone's range is still the lower region's: the open waits for the founder's widened range.
        merged.set(i, h.track(h.engines.get(i).openMember(h.memberDir("merged", i), member("low", mergedPorts, i),
            RoleListener.NONE, KeyRange.ALL)));
      }
    }
    ReplicatedRegion primary = awaitPrimary(merged);
    System.out.printf("group merge: clones, refounding with the copy and the members' opens in %d ms%n",
        (System.nanoTime() - start) / 1_000_000);
    assertThat(primary).isSameAs(merged.get(founder));
    for (ReplicatedRegion m : merged) {
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rows(m).size() == 140);
      assertThat(rows(m)).isEqualTo(expected(0, 140));
    }
    put(primary, "row120x", "after the merge");
    put(primary, "row020x", "after the merge");
    assertThat(primary.members()).hasSize(3);

    primary.close();
    List<ReplicatedRegion> rest = new ArrayList<>(merged);
    rest.remove(primary);
    ReplicatedRegion next = awaitPrimary(rest);
    assertThat(rows(next)).isEqualTo(expected(0, 140, "row020x", "row120x"));
    assertThat(Bytes.toStringBinary(next.get(of("row130"), ReadOptions.DEFAULT).get(0).value())).isEqualTo("v130");

    // The smaller group's directories were only read: a member of it opens alone with its rows.
    ReplicatedRegion old = h.track(h.engines.get(2).openMember(h.memberDir("high", 2), member("high", highPorts, 2),
        RoleListener.NONE));
    assertThat(rows(old)).isEqualTo(expected(100, 140));
  }
}
