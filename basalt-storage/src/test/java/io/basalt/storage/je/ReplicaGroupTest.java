package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.error.NotPrimaryException;
import io.basalt.storage.error.ReplicasUnavailableException;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region's replica group of three members, each on its own engine and loopback port in this JVM: the
 * founder is primary, writes reach the others, a secondary refuses writes naming the primary, the group
 * elects a new primary when the old one closes and loses nothing acknowledged, a member whose directory is
 * gone is refilled from the others, a primary alone cannot acknowledge, and a quiet secondary checkpoints its own log.
 */
@Timeout(180)
class ReplicaGroupTest {
  private static final byte[] F = of("f");
  private static final RegionDescriptor DESCRIPTOR = new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL);

  @TempDir Path dir;
  private final List<StorageEngine> engines = new ArrayList<>();
  private final List<ReplicatedRegion> open = new ArrayList<>();
  private int[] ports;

  private StorageEngine engine() {
    StorageEngine e = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(16 << 20).withPurgeIntervalMillis(0));
    engines.add(e);
    return e;
  }

  @AfterEach
  void close() {
    for (ReplicatedRegion r : open) {
      try {
        r.close();
      } catch (RuntimeException ignored) {
        // closed by the test
      }
    }
    engines.forEach(StorageEngine::close);
  }

  private GroupMembership member(int i) {
    List<String> helpers = new ArrayList<>();
    for (int j = 0; j < ports.length; j++) {
      if (j != i) {
        helpers.add("127.0.0.1:" + ports[j]);
      }
    }
    return new GroupMembership("g1", "node" + i, "127.0.0.1", ports[i], helpers);
  }

  private Path memberDir(int i) {
    return dir.resolve("member" + i);
  }

  private List<ReplicatedRegion> startGroup() throws IOException {
    ports = FreePorts.take(3);
    List<ReplicatedRegion> members = new ArrayList<>();
    members.add(track(engine().createGroup(memberDir(0), DESCRIPTOR, member(0), RoleListener.NONE)));
    for (int i = 1; i < 3; i++) {
      members.add(track(engine().joinGroup(memberDir(i), member(i), RoleListener.NONE)));
    }
    return members;
  }

  private ReplicatedRegion track(ReplicatedRegion r) {
    open.add(r);
    return r;
  }

  private static void put(ReplicatedRegion r, String row, String value) {
    r.mutate(RowMutation.of(of(row)).put(F, of("q"), 1, of(value)).build(), Durability.SYNC_WAL);
  }

  private static String value(ReplicatedRegion r, String row) {
    var cells = r.get(of(row), ReadOptions.DEFAULT);
    return cells.isEmpty() ? null : Bytes.toStringBinary(cells.get(0).value());
  }

  private static ReplicatedRegion awaitPrimary(List<ReplicatedRegion> among) {
    ReplicatedRegion[] found = new ReplicatedRegion[1];
    Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
      for (ReplicatedRegion r : among) {
        if (r.role() == ReplicaRole.PRIMARY) {
          found[0] = r;
          return true;
        }
      }
      return false;
    });
    return found[0];
  }

  @Test
  void theFounderIsPrimaryAndItsWritesReachTheOthers() throws Exception {
    List<ReplicatedRegion> g = startGroup();
    assertThat(g.get(0).role()).isEqualTo(ReplicaRole.PRIMARY);
    assertThat(g.get(1).role()).isEqualTo(ReplicaRole.SECONDARY);
    for (int i = 0; i < 100; i++) {
      put(g.get(0), "row" + i, "v" + i);
    }
    for (ReplicatedRegion secondary : g.subList(1, 3)) {
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "v99".equals(value(secondary, "row99")));
    }
    assertThat(g.get(1).members()).hasSize(3);
    assertThat(g.get(1).primary()).contains("node0");
    // The primary knows how far each secondary is behind: nothing once they applied everything.
    Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(g.get(0).memberLag()).containsOnlyKeys("node1", "node2")
            .allSatisfy((node, lag) -> assertThat(lag).isZero()));
    assertThat(g.get(1).memberLag()).isEmpty();

    // A scanner's calls come on any RPC handler, but a replicated environment's cursor must be closed by the thread
    // that opened it (JE files it under that thread; tests run JE with its assertions on).
    for (ReplicatedRegion member : g.subList(0, 2)) {
      List<String> rows = new ArrayList<>();
      try (RegionScanner s = member.scan(ScanSpec.all())) {
        while (!s.isDone()) {
          onAnotherThread(() -> s.next(30, Long.MAX_VALUE)).forEach(r -> rows.add(Bytes.toStringBinary(r.row())));
        }
      }
      assertThat(rows).hasSize(100);
    }
    RegionScanner left = g.get(1).scan(ScanSpec.all());
    assertThat(onAnotherThread(() -> left.next(1, Long.MAX_VALUE))).hasSize(1);
    g.get(1).close();
  }

  /** Each copy recovers from its own log, so a secondary whose group went quiet bounds its recovery as a primary does. */
  @Test
  void maintenanceCheckpointsASecondaryWithMuchLogSinceItsLastCheckpoint() throws IOException {
    List<ReplicatedRegion> g = startGroup();
    byte[] value = new byte[1000];
    for (int batch = 0; batch < 50; batch++) { // about 27 MB of log on every copy
      List<RowMutation> rows = new ArrayList<>();
      for (int i = 0; i < 540; i++) {
        rows.add(RowMutation.of(of(String.format("r%06d", batch * 540 + i))).put(F, of("q"), value).build());
      }
      g.get(0).mutateBatch(rows, Durability.SYNC_WAL);
    }
    Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
        assertThat(g.get(0).memberLag()).containsOnlyKeys("node1", "node2")
            .allSatisfy((node, lag) -> assertThat(lag).isZero()));
    var secondary = ((JeReplicaRegion) g.get(1)).region().environment();
    var clear = new com.sleepycat.je.StatsConfig().setClear(true);
    secondary.getStats(clear);
    g.get(1).maintain();
    assertThat(secondary.getStats(clear).getNCheckpoints()).as("after 27 MB of log").isEqualTo(1);
    g.get(1).maintain();
    assertThat(secondary.getStats(clear).getNCheckpoints()).as("right after one").isZero();
  }

  private static <T> T onAnotherThread(java.util.function.Supplier<T> call) throws Exception {
    return java.util.concurrent.CompletableFuture.supplyAsync(call, r -> new Thread(r).start())
        .get(10, java.util.concurrent.TimeUnit.SECONDS);
  }

  @Test
  void aMemberWhoseFillWasCutOffStartsOverEmptyAndKeepsNothingOfIt() throws IOException {
    List<ReplicatedRegion> g = startGroup();
    for (int i = 0; i < 50; i++) {
      put(g.get(0), "row" + i, "v" + i);
    }
    // A member joined empty: until it has followed a primary, its directory says it is being filled.
    Path joining = dir.resolve("member2-joining");
    g.get(2).close();
    g.get(1).deleteMember("node2");
    ReplicatedRegion filled = track(engine().joinGroup(joining, member(2), RoleListener.NONE));
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> filled.role() == ReplicaRole.SECONDARY);
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() ->
        !Files.exists(joining.resolve(JeStorageEngine.FILLING_MARKER)));
    filled.close();

    // The same directory as a fill cut off by a crash leaves it: the next open starts over from nothing.
    Files.writeString(joining.resolve(JeStorageEngine.FILLING_MARKER), "node2\n");
    Files.writeString(joining.resolve("leftover-of-the-cut-fill"), "x");
    put(g.get(0), "after", "the cut");
    ReplicatedRegion again = track(engine().openMember(joining, member(2), RoleListener.NONE));
    again.awaitCaughtUp(Duration.ofSeconds(30));
    assertThat(Files.exists(joining.resolve("leftover-of-the-cut-fill"))).isFalse();
    assertThat(value(again, "row49")).isEqualTo("v49");
    assertThat(value(again, "after")).isEqualTo("the cut");
  }

  /**
   * A member that joins empty under a name the group had before replays the group's whole history, its earlier
   * incarnation's member id included; JE kept that stale id, and once the primary died the two survivors refused
   * each other's votes ("Sender's member id: 2 ... was not a member of the group: [1, 3, 4]").
   */
  @Test
  void aNameThatJoinsAgainEmptyCanBeElectedWithTheOthers() throws IOException {
    List<ReplicatedRegion> g = startGroup();
    for (int i = 0; i < 50; i++) {
      put(g.get(0), "row" + i, "v" + i);
    }
    g.get(2).close();
    g.get(1).deleteMember("node2");
    ReplicatedRegion again = track(engine().joinGroup(dir.resolve("member2-again"), member(2), RoleListener.NONE));
    again.awaitCaughtUp(Duration.ofSeconds(30));
    put(g.get(0), "before", "the primary dies");
    g.get(0).close();
    // As a client does: the member may be opened again meanwhile (its stale identity put right), so retry.
    ReplicatedRegion[] next = new ReplicatedRegion[1];
    Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
      next[0] = awaitPrimary(List.of(g.get(1), again));
      put(next[0], "after", "the election");
      return "v49".equals(value(next[0], "row49"));
    });
  }

  @Test
  void aDeletedMemberNoLongerCountsAndItsNameMayJoinAgainEmpty() throws IOException {
    List<ReplicatedRegion> g = startGroup();
    for (int i = 0; i < 50; i++) {
      put(g.get(0), "row" + i, "v" + i);
    }
    g.get(2).close();
    g.get(1).deleteMember("node2");
    assertThat(g.get(0).members()).extracting(m -> m.nodeName()).containsExactlyInAnyOrder("node0", "node1");
    g.get(1).deleteMember("node2"); // already gone: nothing to do
    put(g.get(0), "after", "delete"); // a group of two acknowledges with both

    // The same name joins again with an empty directory (JE's removal would refuse it for good), and once
    // it caught up it holds every acknowledged write without waiting further.
    ReplicatedRegion again = track(engine().joinGroup(dir.resolve("member2-again"), member(2), RoleListener.NONE));
    put(g.get(0), "while", "joining");
    again.awaitCaughtUp(Duration.ofSeconds(30));
    assertThat(value(again, "row49")).isEqualTo("v49");
    assertThat(value(again, "after")).isEqualTo("delete");
    assertThat(g.get(0).members()).hasSize(3);
  }

  @Test
  void aSecondaryRefusesWritesNamingThePrimary() throws IOException {
    List<ReplicatedRegion> g = startGroup();
    assertThatThrownBy(() -> put(g.get(2), "r", "v"))
        .isInstanceOfSatisfying(NotPrimaryException.class, e -> assertThat(e.primary()).contains("node0"));
  }

  @Test
  void theGroupElectsANewPrimaryAndLosesNothingAcknowledged() throws IOException {
    List<ReplicatedRegion> g = startGroup();
    for (int i = 0; i < 200; i++) {
      put(g.get(0), "row" + i, "v" + i);
    }
    g.get(0).close();
    ReplicatedRegion next = awaitPrimary(g.subList(1, 3));
    for (int i = 0; i < 200; i++) {
      assertThat(value(next, "row" + i)).isEqualTo("v" + i);
    }
    put(next, "after", "x");

    // the old primary's directory is gone (a lost disk): it rejoins empty and is refilled
    ReplicatedRegion old = g.get(0);
    io.basalt.storage.io.LocalStorageFiles.INSTANCE.deleteRecursively(memberDir(0));
    ReplicatedRegion refilled = track(engines.get(0).joinGroup(memberDir(0), member(0), RoleListener.NONE));
    assertThat(refilled.role()).isEqualTo(ReplicaRole.SECONDARY);
    assertThat(value(refilled, "row199")).isEqualTo("v199");
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "x".equals(value(refilled, "after")));
    assertThat(old.role()).isNotEqualTo(ReplicaRole.PRIMARY);
  }

  @Test
  void thePrimaryIsHandedOnlyToAMemberThatAnswersAndFollowsIt() throws IOException {
    List<ReplicatedRegion> g = startGroup();
    put(g.get(0), "before", "v");
    g.get(2).close();
    long start = System.nanoTime();
    assertThatThrownBy(() -> g.get(0).transferPrimary("node2", Duration.ofSeconds(10)))
        .isInstanceOf(ReplicasUnavailableException.class).hasMessageContaining("node2");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused before JE's transfer starts")
        .isLessThan(Duration.ofSeconds(5));
    put(g.get(0), "still", "primary");

    g.get(0).transferPrimary("node1", Duration.ofSeconds(10));
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.get(1).role() == ReplicaRole.PRIMARY);
    put(g.get(1), "after", "handover");
    assertThat(value(g.get(1), "still")).isEqualTo("primary");
  }

  @Test
  void aPrimaryWithoutAMajorityCannotAcknowledge() throws IOException {
    List<ReplicatedRegion> g = startGroup();
    put(g.get(0), "before", "v");
    g.get(1).close();
    g.get(2).close();
    assertThatThrownBy(() -> put(g.get(0), "alone", "v")).isInstanceOfAny(ReplicasUnavailableException.class,
        NotPrimaryException.class);
    assertThat(value(g.get(0), "before")).as("still serves what it has").isEqualTo("v");
  }
}
