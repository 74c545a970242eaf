package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static io.basalt.storage.je.GroupHarness.awaitPrimary;
import static io.basalt.storage.je.GroupHarness.member;
import static io.basalt.storage.je.GroupHarness.put;
import static io.basalt.storage.je.GroupHarness.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.segment.LogSegmentSet;
import io.basalt.storage.segment.SegmentLinker;
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
 * A snapshot of a live replica group's primary becomes a NEW group, as a replicated clone makes it: the linked log is
 * cloned on the primary's server, founded there under another group name (a new UUID, its history cut), and two
 * members join it empty (filled by network restore). The new group holds the snapshot's rows, takes writes a
 * majority acknowledges and fails over; the source group, live throughout on the same three servers, sees none of
 * it and keeps its primary when a member of the new group, or of its own, goes away.
 */
@Timeout(240)
class NewGroupFoundingTest {
  private static final RegionDescriptor DESCRIPTOR = new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL);

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

  @Test
  void aSnapshotOfALiveGroupFoundsANewGroupThatNeverMeetsTheSource() throws IOException {
    for (int i = 0; i < 3; i++) {
      h.engines.add(new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(16 << 20).withPurgeIntervalMillis(0)));
    }
    int[] ports = FreePorts.take(6);
    int[] sourcePorts = {ports[0], ports[1], ports[2]};
    int[] clonePorts = {ports[3], ports[4], ports[5]};
    List<ReplicatedRegion> source = new ArrayList<>();
    source.add(h.track(h.engines.get(0).createGroup(h.memberDir("source", 0), DESCRIPTOR, member("g", sourcePorts, 0),
        RoleListener.NONE)));
    for (int i = 1; i < 3; i++) {
      source.add(h.track(h.engines.get(i).joinGroup(h.memberDir("source", i), member("g", sourcePorts, i), RoleListener.NONE)));
    }
    ReplicatedRegion sourcePrimary = awaitPrimary(source);
    for (int i = 0; i < 100; i++) {
      put(sourcePrimary, String.format("row%03d", i), "v" + i);
    }
    int p = source.indexOf(sourcePrimary);

    // The snapshot, on the primary's server, while the group serves; then the clone and the new group there.
    Path snapshot = dir.resolve("server" + p).resolve("snapshot");
    try (LogSegmentSet set = sourcePrimary.checkpointedSegments()) {
      SegmentLinker.link(LocalStorageFiles.INSTANCE, set, snapshot, true);
    }
    put(sourcePrimary, "row999", "after the snapshot");
    h.engines.get(p).cloneClosed(snapshot, h.memberDir("clone", p));
    long start = System.nanoTime();
    GroupMembership founder = cloneMember(clonePorts, p, 0);
    assertThat(h.engines.get(p).foundNewGroup(h.memberDir("clone", p), founder)).isTrue();
    assertThat(h.engines.get(p).foundNewGroup(h.memberDir("clone", p), founder)).as("once only").isFalse();
    List<ReplicatedRegion> clone = new ArrayList<>();
    clone.add(h.track(h.engines.get(p).openMember(h.memberDir("clone", p), founder, RoleListener.NONE)));
    ReplicatedRegion clonePrimary = awaitPrimary(clone);
    for (int k = 1; k < 3; k++) {
      int i = (p + k) % 3;
      clone.add(h.track(h.engines.get(i).joinGroup(h.memberDir("clone", i), cloneMember(clonePorts, p, k), RoleListener.NONE)));
    }
    System.out.printf("new group from a snapshot: founded and two members joined by copy in %d ms%n",
        (System.nanoTime() - start) / 1_000_000);
    assertThat(clonePrimary.members()).hasSize(3);
    put(clonePrimary, "row500", "clone only");
    for (ReplicatedRegion m : clone) {
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rows(m).contains("row500"));
      assertThat(rows(m)).hasSize(101).doesNotContain("row999");
    }
    // The source group: its own rows, its own three members, its primary unmoved.
    assertThat(sourcePrimary.role()).isEqualTo(ReplicaRole.PRIMARY);
    assertThat(sourcePrimary.members()).hasSize(3);
    assertThat(rows(sourcePrimary)).contains("row999").doesNotContain("row500");

    // The new group fails over without its founder; the source keeps its primary meanwhile.
    clonePrimary.close();
    List<ReplicatedRegion> rest = new ArrayList<>(clone);
    rest.remove(clonePrimary);
    ReplicatedRegion next = awaitPrimary(rest);
    put(next, "row501", "after failover");
    // And a source secondary on another server goes: the source primary keeps writing with the other one.
    ReplicatedRegion gone = source.get((p + 1) % 3);
    gone.close();
    put(sourcePrimary, "row998", "one member down");
    assertThat(sourcePrimary.role()).isEqualTo(ReplicaRole.PRIMARY);
    assertThat(rows(sourcePrimary)).doesNotContain("row501");
  }

  /**
   * The clone's member {@code k} (0 the founder, on server {@code p}), named after its server like that server's
   * source member, at the clone's port of that server.
   */
  private static GroupMembership cloneMember(int[] ports, int p, int k) {
    int server = (p + k) % 3;
    List<String> helpers = new ArrayList<>();
    for (int j = 0; j < 3; j++) {
      if (j != server) {
        helpers.add("127.0.0.1:" + ports[j]);
      }
    }
    return new GroupMembership("clone", "node" + server, "127.0.0.1", ports[server], helpers);
  }
}
