package io.basalt.server.master.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.catalog.SnapshotRecord;
import io.basalt.server.master.protocol.Outcome.Kind;
import io.basalt.server.master.protocol.Simulation.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;

/**
 * Snapshot, import, delete, clone and restore driven against {@link SimSnapshots}, without faults and then with
 * every schedule of up to two faults (master crash, region server crash, failed action) at any point between
 * two effects; the world's invariants are checked after every effect and the end state after every run.
 */
class SnapshotProtocolsTest {
  private static final List<org.apache.hadoop.hbase.ServerName> BOTH = List.of(SimCluster.server(0), SimCluster.server(1));

  private static SnapshotRecord planned(SimSnapshots c) {
    return new SnapshotRecord(SimSnapshots.SNAPSHOT, c.tables.get(SimSnapshots.SOURCE), 1000,
        c.parts(SimSnapshots.SOURCE));
  }

  private static List<String> drive(SimWorld c, Protocol p) {
    List<String> names = new ArrayList<>();
    while (p.next().isPresent()) {
      Action a = p.next().get();
      names.add(a instanceof Action.InParallel par ? "InParallel(" + par.parts().get(0).getClass().getSimpleName() + ")"
          : a.getClass().getSimpleName());
      SimCluster.Execution x = c.execute(a);
      x.effects.forEach(e -> {
        e.run();
        c.write();
        c.checkInvariants();
      });
      assertThat(x.failure).isNull();
      p.completed(a, x.result.get());
    }
    return names;
  }

  // ------------------------------------------------------------------ take and import

  @Test
  void aSnapshotLinksEveryRegionThenRecordsItWhileTheTableServes() {
    SimSnapshots c = SimSnapshots.withSource();
    SnapshotProtocol p = SnapshotProtocol.begin("snapshot-s1", planned(c));
    assertThat(drive(c, p)).containsExactly("PersistTxn", "InParallel(LinkRegionSnapshot)", "PersistTxn",
        "RecordSnapshot", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.SNAPSHOT_TAKEN);
    assertThat(c.snapshots).containsKey(SimSnapshots.SNAPSHOT);
    assertThat(c.snapshotFiles(SimSnapshots.SNAPSHOT)).hasSize(2);
    assertThat(c.txns).isEmpty();
  }

  @Test
  void aSnapshotOfATableWithoutRegionsIsRefused() {
    SimSnapshots c = new SimSnapshots();
    SnapshotProtocol p = SnapshotProtocol.begin("snapshot-s1",
        new SnapshotRecord("s1", SimSnapshots.table(SimSnapshots.SOURCE), 1, List.of()));
    assertThat(p.next()).isEmpty();
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REFUSED);
  }

  @Test
  void takingASnapshotSurvivesAnyTwoFaults() {
    int runs = new Simulation<>(SimSnapshots::withSource, c -> SnapshotProtocol.begin("snapshot-s1", planned(c)), BOTH)
        .exhaustive(2, SnapshotProtocolsTest::checkTaken);
    assertThat(runs).isGreaterThan(500);
  }

  @Test
  void importingAnExportSurvivesAnyTwoFaults() {
    // The export is of another cluster's table: its regions are not this cluster's.
    List<SnapshotRecord.Part> exported = List.of(
        new SnapshotRecord.Part(SimSnapshots.region(SimSnapshots.SOURCE, "", "k40", 9), SimCluster.server(1)),
        new SnapshotRecord.Part(SimSnapshots.region(SimSnapshots.SOURCE, "k40", "", 9), SimCluster.server(0)));
    java.util.function.Supplier<SimSnapshots> setup = () -> {
      SimSnapshots c = SimSnapshots.withSource();
      exported.forEach(p -> c.export.put(p.region().getEncodedName(), List.of(new SimCluster.Write("k00", "exported"))));
      return c;
    };
    Simulation<SimSnapshots> sim = new Simulation<>(setup, c -> SnapshotProtocol.importFrom("snapshot-s1",
        new SnapshotRecord(SimSnapshots.SNAPSHOT, c.tables.get(SimSnapshots.SOURCE), 1000, exported),
        SimSnapshots.EXPORT), BOTH);
    sim.exhaustive(2, run -> {
      checkTaken(run);
      if (run.cluster().snapshots.containsKey(SimSnapshots.SNAPSHOT)) {
        run.cluster().servers.values().forEach(s -> s.snapshots.getOrDefault(SimSnapshots.SNAPSHOT, Map.of())
            .values().forEach(files -> assertThat(files).containsExactly(new SimCluster.Write("k00", "exported"))));
      }
    });
  }

  /** Taken: listed with every file. Rolled back: neither listed nor any file left. Unknown: one or the other. */
  private static void checkTaken(Run<SimSnapshots> run) {
    SimSnapshots c = run.cluster();
    String why = run.describe();
    assertThat(c.txns).as(why).isEmpty();
    boolean listed = c.snapshots.containsKey(SimSnapshots.SNAPSHOT);
    Optional<Kind> kind = run.outcome().map(Outcome::kind);
    if (kind.isPresent()) {
      assertThat(kind.get()).as(why).isIn(Kind.SNAPSHOT_TAKEN, Kind.ROLLED_BACK);
      assertThat(listed).as(why).isEqualTo(kind.get() == Kind.SNAPSHOT_TAKEN);
    }
    if (listed) {
      assertThat(c.snapshotFiles(SimSnapshots.SNAPSHOT)).as(why).hasSize(2).noneMatch(f -> f.contains("/"));
    } else {
      assertThat(c.snapshotFiles(SimSnapshots.SNAPSHOT)).as(why).isEmpty();
    }
    c.checkInvariants();
  }

  // ------------------------------------------------------------------ delete

  @Test
  void deletingASnapshotSurvivesAnyTwoFaults() {
    java.util.function.Supplier<SimSnapshots> setup = () -> {
      SimSnapshots c = SimSnapshots.withSource();
      c.takeNow();
      return c;
    };
    SimSnapshots plain = setup.get();
    DeleteSnapshotProtocol once = DeleteSnapshotProtocol.begin("delete-s1", plain.snapshots.get(SimSnapshots.SNAPSHOT));
    assertThat(drive(plain, once)).containsExactly("PersistTxn", "ForgetSnapshot", "InParallel(DropRegionSnapshot)",
        "DeleteTxn");
    assertThat(plain.snapshotFiles(SimSnapshots.SNAPSHOT)).isEmpty();

    new Simulation<>(setup, c -> DeleteSnapshotProtocol.begin("delete-s1", c.snapshots.get(SimSnapshots.SNAPSHOT)),
        BOTH).exhaustive(2, run -> {
          SimSnapshots c = run.cluster();
          String why = run.describe();
          assertThat(c.txns).as(why).isEmpty();
          boolean kept = run.outcome().map(o -> o.kind() == Kind.ROLLED_BACK).orElse(false);
          if (kept) {
            assertThat(c.snapshots).as(why).containsKey(SimSnapshots.SNAPSHOT);
            assertThat(c.snapshotFiles(SimSnapshots.SNAPSHOT)).as(why).hasSize(2);
          } else if (run.outcome().isPresent() || !c.snapshots.containsKey(SimSnapshots.SNAPSHOT)) {
            assertThat(c.snapshots).as(why).doesNotContainKey(SimSnapshots.SNAPSHOT);
            assertThat(c.snapshotFiles(SimSnapshots.SNAPSHOT)).as(why).isEmpty();
          }
        });
  }

  // ------------------------------------------------------------------ clone and restore

  private static SimSnapshots snapshotted() {
    SimSnapshots c = SimSnapshots.withSource();
    c.takeNow();
    for (int i = 0; i < 4; i++) {
      c.write(); // the source goes on after the snapshot
    }
    return c;
  }

  private static CloneSnapshotProtocol cloneOf(SimSnapshots c) {
    SnapshotRecord s = c.snapshots.get(SimSnapshots.SNAPSHOT);
    return CloneSnapshotProtocol.clone("clone-c", s,
        TableDescriptorBuilder.copy(SimSnapshots.CLONE, s.table()), 5);
  }

  @Test
  void aCloneLinksPublishesAndOpensTheSnapshotsRegions() {
    SimSnapshots c = snapshotted();
    CloneSnapshotProtocol p = cloneOf(c);
    assertThat(drive(c, p)).containsExactly("PersistTxn", "CreateClonedTable", "InParallel(CloneSnapshotRegion)",
        "PersistTxn", "PublishClone", "InParallel(OpenRegion)", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.CLONED);
    checkCloned(c, p.txn(), "");
  }

  @Test
  void cloningSurvivesAnyTwoFaults() {
    new Simulation<>(SnapshotProtocolsTest::snapshotted, SnapshotProtocolsTest::cloneOf, BOTH).exhaustive(2, run -> {
      SimSnapshots c = run.cluster();
      String why = run.describe();
      CloneTxn txn = cloneOf(snapshotted()).txn();
      assertThat(c.txns).as(why).isEmpty();
      Optional<Kind> kind = run.outcome().map(Outcome::kind);
      boolean cloned = kind.map(k -> k == Kind.CLONED).orElse(c.tables.containsKey(SimSnapshots.CLONE));
      if (cloned) {
        checkCloned(c, txn, why);
      } else {
        // Rolled back, or the master crashed before the first record: nothing happened.
        kind.ifPresent(k -> assertThat(k).as(why).isEqualTo(Kind.ROLLED_BACK));
        assertThat(c.tables).as(why).doesNotContainKey(SimSnapshots.CLONE);
        assertThat(c.regionFiles(txn.targets())).as(why).isEmpty();
      }
      assertThat(c.snapshotFiles(SimSnapshots.SNAPSHOT)).as(why).hasSize(2);
    });
  }

  /** Enabled and served, each region holding the snapshot's data (and the clone's own writes since). */
  private static void checkCloned(SimSnapshots c, CloneTxn txn, String why) {
    assertThat(c.enabled.get(SimSnapshots.CLONE)).as(why).isTrue();
    SnapshotRecord s = c.snapshots.get(SimSnapshots.SNAPSHOT);
    List<RegionInfo> targets = txn.targets();
    for (int i = 0; i < targets.size(); i++) {
      SimSnapshots.Server server = c.servers.get(s.parts().get(i).server());
      String name = targets.get(i).getEncodedName();
      assertThat(server.open).as(why).containsKey(name);
      List<SimCluster.Write> snap = server.snapshots.get(SimSnapshots.SNAPSHOT).get(s.parts().get(i).region().getEncodedName());
      assertThat(server.dirs.get(name).subList(0, snap.size())).as(why).isEqualTo(snap);
    }
  }

  private static SimSnapshots disabledForRestore() {
    SimSnapshots c = snapshotted();
    c.enabled.put(SimSnapshots.SOURCE, false);
    c.servers.values().forEach(s -> s.open.clear());
    c.acked.remove(SimSnapshots.SOURCE); // a restore drops what was written after the snapshot, by design
    return c;
  }

  private static CloneSnapshotProtocol restoreOf(SimSnapshots c) {
    return CloneSnapshotProtocol.restore("restore-t", c.snapshots.get(SimSnapshots.SNAPSHOT),
        c.parts(SimSnapshots.SOURCE), 5);
  }

  @Test
  void restoringSurvivesAnyTwoFaultsAndLeavesTheTableAsItWasOrAsTheSnapshotWas() {
    SimSnapshots plain = disabledForRestore();
    assertThat(drive(plain, restoreOf(plain))).containsExactly("PersistTxn", "InParallel(CloneSnapshotRegion)",
        "PersistTxn", "PublishClone", "InParallel(DropRegionFiles)", "DeleteTxn");

    new Simulation<>(SnapshotProtocolsTest::disabledForRestore, SnapshotProtocolsTest::restoreOf, BOTH)
        .exhaustive(2, run -> {
          SimSnapshots c = run.cluster();
          SimSnapshots before = disabledForRestore();
          String why = run.describe();
          CloneTxn txn = restoreOf(before).txn();
          assertThat(c.txns).as(why).isEmpty();
          assertThat(c.enabled.get(SimSnapshots.SOURCE)).as(why).isFalse();
          List<String> now = c.regions.keySet().stream().toList();
          boolean restored = run.outcome().map(o -> o.kind() == Kind.RESTORED)
              .orElse(now.contains(txn.targets().get(0).getEncodedName()));
          if (restored) {
            assertThat(now).as(why).containsExactlyInAnyOrderElementsOf(txn.targets().stream()
                .map(RegionInfo::getEncodedName).toList());
            assertThat(c.regionFiles(txn.replaced().stream().map(SnapshotRecord.Part::region).toList())).as(why).isEmpty();
            SnapshotRecord s = c.snapshots.get(SimSnapshots.SNAPSHOT);
            for (int i = 0; i < txn.targets().size(); i++) {
              SimSnapshots.Server server = c.servers.get(s.parts().get(i).server());
              assertThat(server.dirs.get(txn.targets().get(i).getEncodedName())).as(why)
                  .isEqualTo(server.snapshots.get(SimSnapshots.SNAPSHOT).get(s.parts().get(i).region().getEncodedName()));
            }
          } else {
            run.outcome().ifPresent(o -> assertThat(o.kind()).as(why).isEqualTo(Kind.ROLLED_BACK));
            assertThat(c.regions).as(why).isEqualTo(before.regions);
            before.servers.forEach((name, s) -> assertThat(c.servers.get(name).dirs).as(why).isEqualTo(s.dirs));
          }
        });
  }

  // ------------------------------------------------------------------ replicated clone and restore

  private static final List<org.apache.hadoop.hbase.ServerName> ALL = List.of(SimCluster.server(0), SimCluster.server(1),
      SimCluster.server(2));

  /** Three members per region, the founder on the server holding the region's snapshot files. */
  private static List<List<io.basalt.server.catalog.Member>> groupsOf(SnapshotRecord s) {
    List<List<io.basalt.server.catalog.Member>> groups = new ArrayList<>();
    int port = 16500;
    for (SnapshotRecord.Part p : s.parts()) {
      List<io.basalt.server.catalog.Member> g = new ArrayList<>();
      g.add(new io.basalt.server.catalog.Member(p.server(), port++));
      for (org.apache.hadoop.hbase.ServerName other : ALL) {
        if (!other.equals(p.server())) {
          g.add(new io.basalt.server.catalog.Member(other, port++));
        }
      }
      groups.add(g);
    }
    return groups;
  }

  private static CloneSnapshotProtocol replicatedCloneOf(SimSnapshots c) {
    SnapshotRecord s = c.snapshots.get(SimSnapshots.SNAPSHOT);
    return CloneSnapshotProtocol.clone("clone-c", s, TableDescriptorBuilder.copy(SimSnapshots.CLONE, s.table()), 5,
        groupsOf(s));
  }

  @Test
  void aReplicatedCloneFoundsNewGroupsOnTheSnapshotsServersAndEnablesOnceEveryMemberJoined() {
    SimSnapshots c = snapshotted();
    CloneSnapshotProtocol p = replicatedCloneOf(c);
    assertThat(drive(c, p)).containsExactly("PersistTxn", "CreateClonedTable", "InParallel(CloneSnapshotRegion)",
        "InParallel(FoundCloneGroup)", "PersistTxn", "PublishClone", "InParallel(OpenDaughterMember)",
        "InParallel(JoinMember)", "EnableClonedTable", "InParallel(OpenDaughterMember)", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.CLONED);
    checkReplicatedClone(c, p.txn(), "");
  }

  @Test
  void aReplicatedCloneSurvivesAnyTwoFaults() {
    // Crashes of the two founders' servers: each is also a joiner of the other's region (the third only joins).
    int runs = new Simulation<>(SnapshotProtocolsTest::snapshotted, SnapshotProtocolsTest::replicatedCloneOf, BOTH)
        .exhaustive(2, run -> {
          SimSnapshots c = run.cluster();
          String why = run.describe();
          CloneTxn txn = replicatedCloneOf(snapshotted()).txn();
          assertThat(c.txns).as(why).isEmpty();
          Optional<Kind> kind = run.outcome().map(Outcome::kind);
          boolean cloned = kind.map(k -> k == Kind.CLONED).orElse(c.tables.containsKey(SimSnapshots.CLONE));
          if (cloned) {
            checkReplicatedClone(c, txn, why);
          } else {
            kind.ifPresent(k -> assertThat(k).as(why).isEqualTo(Kind.ROLLED_BACK));
            assertThat(c.tables).as(why).doesNotContainKey(SimSnapshots.CLONE);
            assertThat(c.regionFiles(txn.targets())).as(why).isEmpty();
            c.servers.values().forEach(s -> assertThat(s.founded).as(why).isEmpty());
          }
          assertThat(c.snapshotFiles(SimSnapshots.SNAPSHOT)).as(why).hasSize(2);
        });
    assertThat(runs).isGreaterThan(1000);
  }

  /** Enabled; every member of every group has the snapshot's data (and the clone's writes since) and serves. */
  private static void checkReplicatedClone(SimSnapshots c, CloneTxn txn, String why) {
    assertThat(c.enabled.get(SimSnapshots.CLONE)).as(why).isTrue();
    SnapshotRecord s = c.snapshots.get(SimSnapshots.SNAPSHOT);
    List<RegionInfo> targets = txn.targets();
    for (int i = 0; i < targets.size(); i++) {
      String name = targets.get(i).getEncodedName();
      List<SimCluster.Write> snap = c.servers.get(s.parts().get(i).server()).snapshots.get(SimSnapshots.SNAPSHOT)
          .get(s.parts().get(i).region().getEncodedName());
      assertThat(c.members.get(name)).as(why).hasSize(3).doesNotHaveDuplicates();
      assertThat(c.servers.get(s.parts().get(i).server()).founded).as(why).contains(name);
      for (org.apache.hadoop.hbase.ServerName m : c.members.get(name)) {
        SimSnapshots.Server server = c.servers.get(m);
        assertThat(server.open).as(why + " " + m).containsKey(name);
        assertThat(server.dirs.get(name).subList(0, snap.size())).as(why).isEqualTo(snap);
      }
    }
  }

  private static CloneSnapshotProtocol replicatedRestoreOf(SimSnapshots c) {
    SnapshotRecord s = c.snapshots.get(SimSnapshots.SNAPSHOT);
    return CloneSnapshotProtocol.restore("restore-t", s, c.parts(SimSnapshots.SOURCE), 5, groupsOf(s));
  }

  @Test
  void aReplicatedRestoreSurvivesAnyTwoFaultsAndLeavesTheTableAsItWasOrAsTheSnapshotWasWithEveryCopy() {
    SimSnapshots plain = disabledForRestore();
    assertThat(drive(plain, replicatedRestoreOf(plain))).containsExactly("PersistTxn",
        "InParallel(CloneSnapshotRegion)", "InParallel(FoundCloneGroup)", "PersistTxn", "PublishClone",
        "InParallel(OpenDaughterMember)", "InParallel(JoinMember)", "InParallel(CloseMember)",
        "InParallel(DropRegionFiles)", "DeleteTxn");

    new Simulation<>(SnapshotProtocolsTest::disabledForRestore, SnapshotProtocolsTest::replicatedRestoreOf, BOTH)
        .exhaustive(2, run -> {
          SimSnapshots c = run.cluster();
          SimSnapshots before = disabledForRestore();
          String why = run.describe();
          CloneTxn txn = replicatedRestoreOf(before).txn();
          assertThat(c.txns).as(why).isEmpty();
          assertThat(c.enabled.get(SimSnapshots.SOURCE)).as(why).isFalse();
          List<String> now = c.regions.keySet().stream().toList();
          boolean restored = run.outcome().map(o -> o.kind() == Kind.RESTORED)
              .orElse(now.contains(txn.targets().get(0).getEncodedName()));
          if (restored) {
            assertThat(now).as(why).containsExactlyInAnyOrderElementsOf(txn.targets().stream()
                .map(RegionInfo::getEncodedName).toList());
            assertThat(c.regionFiles(txn.replaced().stream().map(SnapshotRecord.Part::region).toList())).as(why).isEmpty();
            SnapshotRecord s = c.snapshots.get(SimSnapshots.SNAPSHOT);
            for (int i = 0; i < txn.targets().size(); i++) {
              String name = txn.targets().get(i).getEncodedName();
              List<SimCluster.Write> snap = c.servers.get(s.parts().get(i).server()).snapshots
                  .get(SimSnapshots.SNAPSHOT).get(s.parts().get(i).region().getEncodedName());
              for (org.apache.hadoop.hbase.ServerName m : c.members.get(name)) {
                assertThat(c.servers.get(m).dirs.get(name)).as(why + " copy on " + m).isEqualTo(snap);
                assertThat(c.servers.get(m).open).as(why + " a disabled table's copies are closed")
                    .doesNotContainKey(name);
              }
            }
          } else {
            run.outcome().ifPresent(o -> assertThat(o.kind()).as(why).isEqualTo(Kind.ROLLED_BACK));
            assertThat(c.regions).as(why).isEqualTo(before.regions);
            before.servers.forEach((name, s) -> assertThat(c.servers.get(name).dirs).as(why).isEqualTo(s.dirs));
          }
        });
  }

  @Test
  void recordsRoundTripAndRecoverWhereTheyStopped() throws Exception {
    SimSnapshots c = snapshotted();
    SnapshotRecord s = c.snapshots.get(SimSnapshots.SNAPSHOT);
    SnapshotTxn taken = new SnapshotTxn("snapshot-s1", SnapshotTxn.Phase.LINKED, s, "/backup", "");
    assertThat(Txn.parse(taken.toBytes())).isEqualTo(taken);
    assertThat(Protocol.recover(taken.toBytes()).next()).get().isInstanceOf(SnapshotActions.RecordSnapshot.class);
    assertThat(Protocol.recover(taken.at(SnapshotTxn.Phase.DELETING).toBytes())).isInstanceOf(DeleteSnapshotProtocol.class);
    CloneTxn clone = cloneOf(c).txn().at(CloneTxn.Phase.CLONED);
    assertThat(Txn.parse(clone.toBytes())).isEqualTo(clone);
    // A record written before replicated clones (version 1, no groups) still reads, as unreplicated.
    TxnCodec.Writer v1 = new TxnCodec.Writer(CloneTxn.KIND, (byte) 1).raw(2).string(clone.id()).raw(0)
        .string(clone.snapshot()).bytes(TableDescriptorBuilder.toByteArray(clone.table())).varint(clone.newRegionId())
        .varint(clone.parts().size());
    clone.parts().forEach(part -> v1.region(part.region()).server(part.server()));
    assertThat(Txn.parse(v1.varint(0).string("").toBytes())).isEqualTo(clone);
    CloneTxn replicated = replicatedCloneOf(c).txn().at(CloneTxn.Phase.CLONED);
    assertThat(Txn.parse(replicated.toBytes())).isEqualTo(replicated);
    assertThat(replicated.replicated()).isTrue();
    assertThat(Protocol.recover(replicated.toBytes()).next()).get().isInstanceOf(SnapshotActions.PublishClone.class);
    assertThat(Protocol.recover(clone.toBytes()).next()).get().isInstanceOf(SnapshotActions.PublishClone.class);
    assertThat(SnapshotRecord.decode(s.encode())).isEqualTo(s);
    byte[] bad = clone.toBytes();
    bad[5] ^= 1;
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Txn.parse(bad)).hasMessageContaining("checksum");
    assertThat(TableName.valueOf("c")).isEqualTo(SimSnapshots.CLONE);
  }
}
