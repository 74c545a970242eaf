package io.basalt.server.master.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.master.protocol.Outcome.Kind;
import io.basalt.server.master.protocol.Simulation.Fault;
import io.basalt.server.master.protocol.Simulation.Run;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class SplitProtocolTest {
  private static final RegionInfo LOW = SimCluster.region("", "k20", 1);
  private static final RegionInfo PARENT = SimCluster.region("k20", "k60", 1);
  private static final RegionInfo HIGH = SimCluster.region("k60", "", 1);
  private static final long DAUGHTER_ID = 2;

  /** rs0 serves the parent, rs1 its neighbours; every key written once. */
  private static SimCluster cluster() {
    SimCluster c = new SimCluster(2);
    c.place(LOW, SimCluster.server(1));
    c.place(PARENT, SimCluster.server(0));
    c.place(HIGH, SimCluster.server(1));
    for (int i = 0; i < c.keys.size(); i++) {
      c.write();
    }
    return c;
  }

  private static SplitProtocol begin(SimCluster c, Optional<byte[]> row) {
    return SplitProtocol.begin("split-" + PARENT.getEncodedName(), PARENT, SimCluster.server(0), row, DAUGHTER_ID);
  }

  private static Simulation<SimCluster> simulation() {
    // rs1 only holds the neighbours: crashing it tells nothing about the split.
    return new Simulation<>(SplitProtocolTest::cluster, c -> begin(c, Optional.empty()), List.of(SimCluster.server(0)));
  }

  /** Drives a protocol without faults, returning the actions' names as it went. */
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
      return n + "(" + ((SplitTxn) t.txn()).phase() + ")";
    }
    if (a instanceof Action.SetRegionState s) {
      return n + "(" + s.state() + ")";
    }
    return n;
  }

  @Test
  void aSplitRunsItsStepsInOrderAndEndsWithTheDaughtersServing() {
    SimCluster c = cluster();
    SplitProtocol p = begin(c, Optional.empty());
    assertThat(drive(c, p)).containsExactly("ChooseMidpoint", "PersistTxn(STARTED)", "SetRegionState(SPLITTING)",
        "CloseAndClone", "PersistTxn(CLONED)", "PublishSplit", "OpenDaughters", "PersistTxn(PUBLISHED)",
        "DropRegionFiles", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.SPLIT);
    assertThat(p.outcome().get().reason()).contains("k40");
    assertThat(p.committed()).isTrue();
    assertSplit(c);
  }

  @Test
  void aRequestedRowSkipsTheMidpointAndSplitsThere() {
    SimCluster c = cluster();
    SplitProtocol p = begin(c, Optional.of(Bytes.toBytes("k31")));
    assertThat(drive(c, p).get(0)).isEqualTo("PersistTxn(STARTED)");
    assertThat(Bytes.toString(p.txn().orElseThrow().daughterB().getStartKey())).isEqualTo("k31");
    assertSplit(c);
  }

  @Test
  void rowsNotStrictlyInsideTheParentAreRefusedBeforeAnythingHappens() {
    for (String row : new String[] {"k20", "k60", "k70", "a", ""}) {
      SplitProtocol p = begin(cluster(), Optional.of(Bytes.toBytes(row)));
      assertThat(p.isDone()).as(row).isTrue();
      assertThat(p.next()).isEmpty();
      assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REFUSED);
    }
  }

  @Test
  void aRegionWithoutASplitPointIsRefused() {
    SplitProtocol p = begin(cluster(), Optional.empty());
    p.completed(p.next().orElseThrow(), new Result.NoSplitPoint("1 row"));
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REFUSED);
    assertThat(p.outcome().get().reason()).contains("1 row");
  }

  @Test
  void aFailedCloneRollsBackAndTheParentServesAgain() {
    SimCluster c = cluster();
    SplitProtocol p = begin(c, Optional.empty());
    List<String> names = new ArrayList<>();
    while (p.next().isPresent()) {
      Action a = p.next().get();
      names.add(name(a));
      SimCluster.Execution x = c.execute(a);
      if (a instanceof Action.CloseAndClone) {
        x.effects.get(0).run(); // closed, then the server gave up
        x.effects.get(1).run();
        p.failed(a, "disk full");
        continue;
      }
      x.effects.forEach(Runnable::run);
      c.checkInvariants();
      p.completed(a, x.result.get());
    }
    assertThat(names).containsExactly("ChooseMidpoint", "PersistTxn(STARTED)", "SetRegionState(SPLITTING)",
        "CloseAndClone", "PersistTxn(ROLLING_BACK)", "SetRegionState(OPEN)", "RollBackSplit", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.ROLLED_BACK);
    assertThat(p.outcome().get().reason()).contains("CloseAndClone").contains("disk full");
    assertThat(p.committed()).isFalse();
    assertRolledBack(c);
  }

  @Test
  void afterThePointOfNoReturnAFailedActionIsOfferedAgain() {
    SimCluster c = cluster();
    SplitProtocol p = begin(c, Optional.empty());
    int failures = 0;
    while (p.next().isPresent()) {
      Action a = p.next().get();
      if (a instanceof Action.PublishSplit && failures++ < 3) {
        p.failed(a, "ZooKeeper unavailable");
        assertThat(p.next()).contains(a);
        continue;
      }
      SimCluster.Execution x = c.execute(a);
      x.effects.forEach(Runnable::run);
      p.completed(a, x.result.get());
    }
    assertThat(failures).isEqualTo(4);
    assertSplit(c);
  }

  @Test
  void aFailureToRecordTheStartOnlyDeletesTheRecord() {
    SplitProtocol p = begin(cluster(), Optional.of(Bytes.toBytes("k30")));
    p.failed(p.next().orElseThrow(), "connection loss");
    assertThat(p.next()).get().isInstanceOf(Action.DeleteTxn.class);
    p.completed(p.next().get());
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.ROLLED_BACK);
  }

  @Test
  void recoveryDecidesFromThePhaseAlone() {
    SplitTxn txn = new SplitTxn("split-x", SplitTxn.Phase.STARTED, PARENT, ServerName.valueOf("rs0", 16020, 1),
        Bytes.toBytes("k40"), DAUGHTER_ID, "");
    Map<SplitTxn.Phase, Class<?>> first = new EnumMap<>(SplitTxn.Phase.class);
    for (SplitTxn.Phase phase : SplitTxn.Phase.values()) {
      SplitProtocol p = SplitProtocol.recover(txn.at(phase));
      first.put(phase, p.next().orElseThrow().getClass());
      assertThat(p.committed()).as(phase.name())
          .isEqualTo(phase == SplitTxn.Phase.CLONED || phase == SplitTxn.Phase.PUBLISHED);
    }
    assertThat(first).containsEntry(SplitTxn.Phase.STARTED, Action.PersistTxn.class)
        .containsEntry(SplitTxn.Phase.ROLLING_BACK, Action.SetRegionState.class)
        .containsEntry(SplitTxn.Phase.CLONED, Action.PublishSplit.class)
        .containsEntry(SplitTxn.Phase.PUBLISHED, Action.OpenDaughters.class);
    Action persist = SplitProtocol.recover(txn).next().orElseThrow();
    assertThat(((SplitTxn) ((Action.PersistTxn) persist).txn()).phase()).isEqualTo(SplitTxn.Phase.ROLLING_BACK);
  }

  @Test
  void onlyTheOutstandingActionWithAResultOfItsKindIsAccepted() {
    SplitProtocol p = begin(cluster(), Optional.empty());
    Action choose = p.next().orElseThrow();
    assertThat(p.next()).get().isSameAs(choose);
    assertThatThrownBy(() -> p.completed(choose, Result.DONE)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> p.completed(new Action.DeleteTxn("x"))).isInstanceOf(IllegalStateException.class);
    p.completed(choose, new Result.SplitPoint(Bytes.toBytes("k40")));
    assertThatThrownBy(() -> p.completed(choose, Result.DONE)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void everySingleFaultAtEveryPointEndsSplitOrBack() {
    Map<String, Integer> endings = new java.util.TreeMap<>();
    int runs = simulation().exhaustive(1, run -> endings.merge(checkEnd(run), 1, Integer::sum));
    assertThat(endings).containsKeys("SPLIT", "ROLLED_BACK", "unknown");
    assertThat(runs).isGreaterThan(60);
  }

  @Test
  void everyPairOfFaultsEndsSplitOrBack() {
    Map<String, Integer> endings = new java.util.TreeMap<>();
    int runs = simulation().exhaustive(2, run -> endings.merge(checkEnd(run), 1, Integer::sum));
    assertThat(endings).containsKeys("SPLIT", "ROLLED_BACK");
    assertThat(runs).isGreaterThan(1500);
  }

  @Test
  void aCrashRightAfterTheCloneButBeforeItIsRecordedRollsBack() {
    Simulation<SimCluster> sim = simulation();
    int clone = sim.pointAfter(Action.CloseAndClone.class, 1);
    Run<SimCluster> run = sim.run(List.of(new Fault(clone, Simulation.Kind.MASTER_CRASH, null)));
    assertThat(checkEnd(run)).isEqualTo("ROLLED_BACK");
    int recorded = sim.pointAfter(Action.PersistTxn.class, 2);
    run = sim.run(List.of(new Fault(recorded, Simulation.Kind.MASTER_CRASH, null)));
    assertThat(checkEnd(run)).isEqualTo("SPLIT");
  }

  /** Checks a finished run and names how it ended. */
  private static String checkEnd(Run<SimCluster> run) {
    SimCluster c = run.cluster();
    try {
      assertThat(c.txns).as("transactions left").isEmpty();
      SimCluster.Entry parent = c.catalog.get(PARENT.getEncodedName());
      String ending;
      if ("SPLIT".equals(parent.state())) {
        assertSplit(c);
        ending = "SPLIT";
      } else {
        assertRolledBack(c);
        ending = run.outcome().map(o -> o.kind().name()).orElse("ROLLED_BACK");
      }
      run.outcome().ifPresent(o -> assertThat(o.kind().name()).isIn(ending, "REFUSED"));
      c.checkAllServed();
      return run.outcome().isPresent() ? ending : "unknown";
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + run.describe(), e);
    }
  }

  private static void assertSplit(SimCluster c) {
    ServerName rs0 = SimCluster.server(0);
    SimCluster.Entry parent = c.catalog.get(PARENT.getEncodedName());
    assertThat(parent.state()).isEqualTo("SPLIT");
    assertThat(parent.region().isSplit()).isTrue();
    for (RegionInfo d : List.of(parent.splitA(), parent.splitB())) {
      assertThat(c.catalog.get(d.getEncodedName())).isEqualTo(new SimCluster.Entry(d, rs0, "OPEN"));
      assertThat(c.servers.get(rs0).open).containsKey(d.getEncodedName());
    }
    assertThat(c.stored(rs0)).containsExactlyInAnyOrder(parent.splitA().getEncodedName(),
        parent.splitB().getEncodedName());
    assertThat(c.stored(SimCluster.server(1))).containsExactlyInAnyOrder(LOW.getEncodedName(), HIGH.getEncodedName());
    assertThat(c.catalog).hasSize(5);
  }

  private static void assertRolledBack(SimCluster c) {
    ServerName rs0 = SimCluster.server(0);
    assertThat(c.catalog.get(PARENT.getEncodedName())).isEqualTo(new SimCluster.Entry(PARENT, rs0, "OPEN"));
    assertThat(c.catalog).hasSize(3);
    assertThat(c.servers.get(rs0).open).containsOnlyKeys(PARENT.getEncodedName());
    assertThat(c.stored(rs0)).isEqualTo(new TreeSet<>(List.of(PARENT.getEncodedName())));
    assertThat(c.stored(SimCluster.server(1))).containsExactlyInAnyOrder(LOW.getEncodedName(), HIGH.getEncodedName());
  }
}
