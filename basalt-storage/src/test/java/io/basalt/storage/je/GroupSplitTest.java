package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static io.basalt.storage.je.GroupHarness.awaitPrimary;
import static io.basalt.storage.je.GroupHarness.expected;
import static io.basalt.storage.je.GroupHarness.member;
import static io.basalt.storage.je.GroupHarness.put;
import static io.basalt.storage.je.GroupHarness.row;
import static io.basalt.storage.je.GroupHarness.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.error.RegionClosedException;
import io.basalt.storage.error.ReplicasUnavailableException;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicaRole;
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
 * A replica group of three members split the way a replicated region splits: the primary seals the group
 * behind a barrier every member acknowledges, the members close, each member's log is cloned (hard links)
 * into both daughters' directories, one member per daughter refounds a group at new ports, and the others
 * join it with their clones at the same log position. Both daughter groups elect primaries, take writes a
 * majority acknowledges, hold exactly their rows, and the parent's directories keep every row.
 */
@Timeout(240)
class GroupSplitTest {
  private static final RegionDescriptor DESCRIPTOR = new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL);
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

  private void startEngines() {
    for (int i = 0; i < 3; i++) {
      h.engines.add(new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(16 << 20).withPurgeIntervalMillis(0)));
    }
  }

  private List<ReplicatedRegion> startParent(int[] ports) {
    List<ReplicatedRegion> g = new ArrayList<>();
    g.add(h.track(h.engines.get(0).createGroup(h.memberDir("parent", 0), DESCRIPTOR, member("g", ports, 0),
        RoleListener.NONE)));
    for (int i = 1; i < 3; i++) {
      g.add(h.track(h.engines.get(i).joinGroup(h.memberDir("parent", i), member("g", ports, i), RoleListener.NONE)));
    }
    return g;
  }

  /** Refounds the daughter's group on {@code founder}, then opens it first and the others after it. */
  private List<ReplicatedRegion> openDaughter(String name, KeyRange range, int[] ports, int founder) {
    GroupMembership founding = member("g", ports, founder);
    assertThat(h.engines.get(founder).refoundGroup(h.memberDir(name, founder), founding)).isTrue();
    // A repeat after a crash must not reset the group again.
    assertThat(h.engines.get(founder).refoundGroup(h.memberDir(name, founder), founding)).isFalse();
    List<ReplicatedRegion> g = new ArrayList<>(java.util.Arrays.asList(new ReplicatedRegion[3]));
    g.set(founder, h.track(h.engines.get(founder).openMember(h.memberDir(name, founder), founding, RoleListener.NONE, range)));
    for (int i = 0; i < 3; i++) {
      if (i != founder) {
        g.set(i, h.track(h.engines.get(i).openMember(h.memberDir(name, i), member("g", ports, i), RoleListener.NONE, range)));
      }
    }
    return g;
  }

  @Test
  void bothDaughterGroupsServeExactlyTheirRowsAtTheirOwnPorts() throws IOException {
    startEngines();
    int[] ports = FreePorts.take(9);
    int[] parentPorts = {ports[0], ports[1], ports[2]};
    List<ReplicatedRegion> parent = startParent(parentPorts);
    for (int i = 0; i < 200; i++) {
      put(parent.get(0), row(i), "v" + i);
    }

    long barrier = parent.get(0).sealForSplit();
    assertThatThrownBy(() -> put(parent.get(0), "row500", "late")).isInstanceOf(RegionClosedException.class);
    // Every member acknowledged the barrier: all logs end at the same position before any is cloned.
    for (ReplicatedRegion m : parent) {
      assertThat(m.awaitLogPosition(barrier, Duration.ofSeconds(5))).isEqualTo(barrier);
    }
    parent.get(1).close();
    parent.get(2).close();
    parent.get(0).close();

    long start = System.nanoTime();
    for (int i = 0; i < 3; i++) {
      h.engines.get(i).cloneClosed(h.memberDir("parent", i), h.memberDir("low", i));
      h.engines.get(i).cloneClosed(h.memberDir("parent", i), h.memberDir("high", i));
    }
    List<ReplicatedRegion> low = openDaughter("low", LOW, new int[] {ports[3], ports[4], ports[5]}, 0);
    List<ReplicatedRegion> high = openDaughter("high", HIGH, new int[] {ports[6], ports[7], ports[8]}, 1);
    ReplicatedRegion lowPrimary = awaitPrimary(low);
    ReplicatedRegion highPrimary = awaitPrimary(high);
    System.out.printf("group split: clones, refounding and both daughters' primaries in %d ms%n",
        (System.nanoTime() - start) / 1_000_000);

    // Writes acknowledged by a majority of each daughter's group.
    put(lowPrimary, "row050x", "new-low");
    put(highPrimary, "row150x", "new-high");
    assertThatThrownBy(() -> put(lowPrimary, "row150y", "wrong side")).isInstanceOf(RuntimeException.class);
    for (List<ReplicatedRegion> g : List.of(low, high)) {
      assertThat(g.get(0).members()).hasSize(3);
    }

    // Every member of each daughter, secondaries included, holds exactly its rows (at once: before the
    // primary has removed the sibling's keys, and after).
    for (ReplicatedRegion m : low) {
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rows(m).contains("row050x"));
      assertThat(rows(m)).isEqualTo(expected(0, 100, "row050x"));
    }
    for (ReplicatedRegion m : high) {
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rows(m).contains("row150x"));
      assertThat(rows(m)).isEqualTo(expected(100, 200, "row150x"));
    }
    lowPrimary.maintain(); // the sibling's keys go (the engine ran this at open already), through the log
    for (ReplicatedRegion m : low) {
      assertThat(rows(m)).isEqualTo(expected(0, 100, "row050x"));
    }

    // A daughter's group fails over like any group.
    lowPrimary.close();
    List<ReplicatedRegion> rest = new ArrayList<>(low);
    rest.remove(lowPrimary);
    ReplicatedRegion next = awaitPrimary(rest);
    put(next, "row060x", "after failover");
    assertThat(Bytes.toStringBinary(next.get(of("row050x"), ReadOptions.DEFAULT).get(0).value())).isEqualTo("new-low");

    // The parent's directories were not touched: a member of it opens alone and has every row.
    ReplicatedRegion old = h.track(h.engines.get(2).openMember(h.memberDir("parent", 2), member("g", parentPorts, 2),
        RoleListener.NONE));
    assertThat(rows(old)).isEqualTo(expected(0, 200));
  }

  /**
   * A daughter's non-founding member that starts before its founder answers (a loaded machine) asks JE once
   * and then knows only its parent's group, at ports nobody listens on any more: it must still find the
   * founder once that is up, by asking its helpers again.
   */
  @Test
  void aMemberOpenedBeforeItsFounderAnswersStillJoinsIt() throws IOException {
    startEngines();
    int[] ports = FreePorts.take(6);
    int[] parentPorts = {ports[0], ports[1], ports[2]};
    List<ReplicatedRegion> parent = startParent(parentPorts);
    for (int i = 0; i < 50; i++) {
      put(parent.get(0), row(i), "v" + i);
    }
    long barrier = parent.get(0).sealForSplit();
    for (ReplicatedRegion m : parent) {
      assertThat(m.awaitLogPosition(barrier, Duration.ofSeconds(5))).isEqualTo(barrier);
    }
    parent.get(1).close();
    parent.get(2).close();
    parent.get(0).close();
    for (int i = 0; i < 3; i++) {
      h.engines.get(i).cloneClosed(h.memberDir("parent", i), h.memberDir("low", i));
    }
    int[] daughterPorts = {ports[3], ports[4], ports[5]};
    GroupMembership founding = member("g", daughterPorts, 0);
    assertThat(h.engines.get(0).refoundGroup(h.memberDir("low", 0), founding)).isTrue();
    List<ReplicatedRegion> others = new ArrayList<>();
    for (int i = 1; i < 3; i++) {
      others.add(h.track(h.engines.get(i).openMember(h.memberDir("low", i), member("g", daughterPorts, i),
          RoleListener.NONE, LOW)));
    }
    assertThat(others).allSatisfy(m -> assertThat(m.role()).isEqualTo(ReplicaRole.UNKNOWN));
    ReplicatedRegion founder = h.track(h.engines.get(0).openMember(h.memberDir("low", 0), founding, RoleListener.NONE, LOW));
    assertThat(founder.role()).isEqualTo(ReplicaRole.PRIMARY);
    for (ReplicatedRegion m : others) {
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> m.role() == ReplicaRole.SECONDARY);
    }
    put(founder, "row010x", "acknowledged by a majority of the daughter");
  }

  @Test
  void aGroupWithAMemberDownCannotBeSealedAndKeepsTakingWrites() throws IOException {
    startEngines();
    List<ReplicatedRegion> parent = startParent(FreePorts.take(3));
    put(parent.get(0), "a", "1");
    parent.get(2).close();
    assertThatThrownBy(() -> parent.get(0).sealForSplit()).isInstanceOf(ReplicasUnavailableException.class);
    put(parent.get(0), "b", "2");
    assertThat(rows(parent.get(1))).isNotEmpty();
  }

  @Test
  void onlyThePrimaryCanSeal() throws IOException {
    startEngines();
    List<ReplicatedRegion> parent = startParent(FreePorts.take(3));
    assertThatThrownBy(() -> parent.get(1).sealForSplit())
        .isInstanceOf(io.basalt.storage.error.NotPrimaryException.class);
  }
}
