package io.basalt.server.master.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.master.protocol.Outcome.Kind;
import io.basalt.server.master.protocol.Simulation.Fault;
import io.basalt.server.master.protocol.Simulation.Run;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.junit.jupiter.api.Test;

class MergeProtocolTest {
  private static final RegionInfo LOW = SimCluster.region("", "k20", 1);
  private static final RegionInfo LOWER = SimCluster.region("k20", "k40", 1);
  private static final RegionInfo UPPER = SimCluster.region("k40", "k60", 1);
  private static final RegionInfo HIGH = SimCluster.region("k60", "", 1);
  private static final long MERGED_ID = 2;
  private static final RegionInfo MERGED = SimCluster.region("k20", "k60", MERGED_ID);

  /** rs0 serves the two regions to merge, rs1 their neighbours; every key written once. */
  private static SimCluster cluster() {
    SimCluster c = new SimCluster(2);
    c.place(LOW, SimCluster.server(1));
    c.place(LOWER, SimCluster.server(0));
    c.place(UPPER, SimCluster.server(0));
    c.place(HIGH, SimCluster.server(1));
    for (int i = 0; i < c.keys.size(); i++) {
      c.write();
    }
    return c;
  }

  /** Like {@link #cluster()}, but the two regions are split daughters whose logs still hold each other's keys. */
  private static SimCluster daughters() {
    SimCluster c = cluster();
    // Each log also holds a value of a key of its sibling's range, newer in the log than the sibling's own: a merge
    // that took it would serve it instead of the acknowledged one.
    c.servers.get(SimCluster.server(0)).dirs.get(LOWER.getEncodedName()).add(new SimCluster.Write("k44", "stale"));
    c.servers.get(SimCluster.server(0)).dirs.get(UPPER.getEncodedName()).add(new SimCluster.Write("k24", "stale"));
    return c;
  }

  private static MergeProtocol begin(SimCluster c) {
    return MergeProtocol.begin("merge-" + LOWER.getEncodedName(), LOWER, UPPER, SimCluster.server(0), MERGED_ID);
  }

  private static Simulation<SimCluster> simulation() {
    // rs1 only holds the neighbours: crashing it tells nothing about the merge.
    return new Simulation<>(MergeProtocolTest::cluster, MergeProtocolTest::begin, List.of(SimCluster.server(0)));
  }

  private static List<String> drive(SimCluster c, Protocol p) {
    List<String> names = new ArrayList<>();
    while (p.next().isPresent()) {
      Action a = p.next().get();
      names.add(name(a));
      SimCluster.Execution x = c.execute(a);
      x.effects.forEach(Runnable::run);
      c.checkInvariants();
      assertThat(x.failure).isNull();
      p.completed(a, x.result.get());
    }
    return names;
  }

  private static String name(Action a) {
    String n = a.getClass().getSimpleName();
    if (a instanceof Action.PersistTxn t) {
      return n + "(" + ((MergeTxn) t.txn()).phase() + ")";
    }
    if (a instanceof Action.SetRegionState s) {
      return n + "(" + s.state() + ")";
    }
    return n;
  }

  @Test
  void aMergeRunsItsStepsInOrderAndEndsWithTheMergedRegionServing() {
    SimCluster c = cluster();
    MergeProtocol p = begin(c);
    assertThat(drive(c, p)).containsExactly("PersistTxn(STARTED)", "SetRegionState(MERGING)",
        "SetRegionState(MERGING)", "CloseAndMerge", "PersistTxn(MERGED)", "PublishMerge", "OpenRegion",
        "PersistTxn(PUBLISHED)", "DropRegionFiles", "DropRegionFiles", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.MERGED);
    assertThat(p.committed()).isTrue();
    assertThat(p.txn().merged()).isEqualTo(MERGED);
    assertMerged(c);
  }

  @Test
  void staleSiblingKeysInADaughtersLogNeverShowAfterTheMerge() {
    SimCluster c = daughters();
    drive(c, begin(c));
    assertMerged(c);
    assertThat(c.servers.get(SimCluster.server(0)).dirs.get(MERGED.getEncodedName()))
        .noneMatch(w -> w.value().equals("stale"));
  }

  @Test
  void aFailedMergeRollsBackAndBothRegionsServeAgain() {
    SimCluster c = cluster();
    MergeProtocol p = begin(c);
    List<String> names = new ArrayList<>();
    while (p.next().isPresent()) {
      Action a = p.next().get();
      names.add(name(a));
      SimCluster.Execution x = c.execute(a);
      if (a instanceof Action.CloseAndMerge) {
        x.effects.get(0).run(); // closed, then the server gave up
        x.effects.get(1).run();
        x.effects.get(2).run();
        p.failed(a, "disk full");
        continue;
      }
      x.effects.forEach(Runnable::run);
      c.checkInvariants();
      p.completed(a, x.result.get());
    }
    assertThat(names).containsExactly("PersistTxn(STARTED)", "SetRegionState(MERGING)", "SetRegionState(MERGING)",
        "CloseAndMerge", "PersistTxn(ROLLING_BACK)", "SetRegionState(OPEN)", "SetRegionState(OPEN)", "RollBackMerge",
        "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.ROLLED_BACK);
    assertThat(p.outcome().get().reason()).contains("CloseAndMerge").contains("disk full");
    assertThat(p.committed()).isFalse();
    assertRolledBack(c);
  }

  @Test
  void afterThePointOfNoReturnAFailedActionIsOfferedAgain() {
    SimCluster c = cluster();
    MergeProtocol p = begin(c);
    int failures = 0;
    while (p.next().isPresent()) {
      Action a = p.next().get();
      if (a instanceof Action.PublishMerge && failures++ < 3) {
        p.failed(a, "ZooKeeper unavailable");
        assertThat(p.next()).contains(a);
        continue;
      }
      SimCluster.Execution x = c.execute(a);
      x.effects.forEach(Runnable::run);
      p.completed(a, x.result.get());
    }
    assertThat(failures).isEqualTo(4);
    assertMerged(c);
  }

  @Test
  void recoveryDecidesFromThePhaseAlone() {
    MergeTxn txn = begin(cluster()).txn();
    Map<MergeTxn.Phase, Class<?>> first = new EnumMap<>(MergeTxn.Phase.class);
    for (MergeTxn.Phase phase : MergeTxn.Phase.values()) {
      MergeProtocol p = MergeProtocol.recover(txn.at(phase));
      first.put(phase, p.next().orElseThrow().getClass());
      assertThat(p.committed()).as(phase.name())
          .isEqualTo(phase == MergeTxn.Phase.MERGED || phase == MergeTxn.Phase.PUBLISHED);
    }
    assertThat(first).containsEntry(MergeTxn.Phase.STARTED, Action.PersistTxn.class)
        .containsEntry(MergeTxn.Phase.ROLLING_BACK, Action.SetRegionState.class)
        .containsEntry(MergeTxn.Phase.MERGED, Action.PublishMerge.class)
        .containsEntry(MergeTxn.Phase.PUBLISHED, Action.OpenRegion.class);
  }

  @Test
  void theRecordRoundTripsAndRefusesCorruptionAndRegionsThatAreNotAdjacent() throws IOException {
    MergeTxn txn = begin(cluster()).txn().rollingBack("why");
    assertThat(Txn.parse(txn.toBytes())).isEqualTo(txn);
    byte[] bytes = txn.toBytes();
    bytes[5] ^= 1;
    assertThatThrownBy(() -> Txn.parse(bytes)).isInstanceOf(IOException.class).hasMessageContaining("checksum");
    ServerName rs0 = SimCluster.server(0);
    assertThatThrownBy(() -> MergeProtocol.begin("m", LOWER, HIGH, rs0, MERGED_ID))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not adjacent");
    assertThatThrownBy(() -> MergeProtocol.begin("m", UPPER, LOWER, rs0, MERGED_ID))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MergeProtocol.begin("m", LOWER, UPPER, rs0, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("region id");
  }

  @Test
  void everySingleFaultAtEveryPointEndsMergedOrBack() {
    Map<String, Integer> endings = new java.util.TreeMap<>();
    int runs = simulation().exhaustive(1, run -> endings.merge(checkEnd(run), 1, Integer::sum));
    assertThat(endings).containsKeys("MERGED", "ROLLED_BACK", "unknown");
    assertThat(runs).isGreaterThan(60);
  }

  @Test
  void everyPairOfFaultsEndsMergedOrBack() {
    Map<String, Integer> endings = new java.util.TreeMap<>();
    int runs = simulation().exhaustive(2, run -> endings.merge(checkEnd(run), 1, Integer::sum));
    assertThat(endings).containsKeys("MERGED", "ROLLED_BACK");
    assertThat(runs).isGreaterThan(1500);
  }

  @Test
  void threeRandomFaultsPerRunEndMergedOrBack() {
    simulation().random(14, 3000, 3, MergeProtocolTest::checkEnd);
  }

  @Test
  void aCrashRightAfterTheMergeButBeforeItIsRecordedRollsBack() {
    Simulation<SimCluster> sim = simulation();
    int merge = sim.pointAfter(Action.CloseAndMerge.class, 1);
    Run<SimCluster> run = sim.run(List.of(new Fault(merge, Simulation.Kind.MASTER_CRASH, null)));
    assertThat(checkEnd(run)).isEqualTo("ROLLED_BACK");
    int recorded = sim.pointAfter(Action.PersistTxn.class, 2);
    run = sim.run(List.of(new Fault(recorded, Simulation.Kind.MASTER_CRASH, null)));
    assertThat(checkEnd(run)).isEqualTo("MERGED");
  }

  /** Checks a finished run and names how it ended. */
  private static String checkEnd(Run<SimCluster> run) {
    SimCluster c = run.cluster();
    try {
      assertThat(c.txns).as("transactions left").isEmpty();
      String ending;
      if (c.catalog.containsKey(MERGED.getEncodedName())) {
        assertMerged(c);
        ending = "MERGED";
      } else {
        assertRolledBack(c);
        ending = "ROLLED_BACK";
      }
      run.outcome().ifPresent(o -> assertThat(o.kind().name()).isEqualTo(ending));
      c.checkAllServed();
      return run.outcome().isPresent() ? ending : "unknown";
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + run.describe(), e);
    }
  }

  private static void assertMerged(SimCluster c) {
    ServerName rs0 = SimCluster.server(0);
    assertThat(c.catalog.get(MERGED.getEncodedName())).isEqualTo(new SimCluster.Entry(MERGED, rs0, "OPEN"));
    assertThat(c.catalog).doesNotContainKeys(LOWER.getEncodedName(), UPPER.getEncodedName()).hasSize(3);
    assertThat(c.servers.get(rs0).open).containsOnlyKeys(MERGED.getEncodedName());
    assertThat(c.stored(rs0)).containsExactly(MERGED.getEncodedName());
    assertThat(c.stored(SimCluster.server(1))).containsExactlyInAnyOrder(LOW.getEncodedName(), HIGH.getEncodedName());
  }

  private static void assertRolledBack(SimCluster c) {
    ServerName rs0 = SimCluster.server(0);
    assertThat(c.catalog.get(LOWER.getEncodedName())).isEqualTo(new SimCluster.Entry(LOWER, rs0, "OPEN"));
    assertThat(c.catalog.get(UPPER.getEncodedName())).isEqualTo(new SimCluster.Entry(UPPER, rs0, "OPEN"));
    assertThat(c.catalog).hasSize(4);
    assertThat(c.servers.get(rs0).open).containsOnlyKeys(LOWER.getEncodedName(), UPPER.getEncodedName());
    assertThat(c.stored(rs0)).containsExactlyInAnyOrder(LOWER.getEncodedName(), UPPER.getEncodedName());
    assertThat(c.stored(SimCluster.server(1))).containsExactlyInAnyOrder(LOW.getEncodedName(), HIGH.getEncodedName());
  }
}
