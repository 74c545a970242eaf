package io.basalt.server.master.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.master.protocol.Outcome.Kind;
import io.basalt.server.master.protocol.Simulation.Fault;
import io.basalt.server.master.protocol.Simulation.Run;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.junit.jupiter.api.Test;

class MoveProtocolTest {
  private static final RegionInfo LOW = SimCluster.region("", "k20", 1);
  private static final RegionInfo REGION = SimCluster.region("k20", "k60", 1);
  private static final RegionInfo HIGH = SimCluster.region("k60", "", 1);
  private static final ServerName SOURCE = SimCluster.server(0);
  private static final ServerName TARGET = SimCluster.server(1);

  /** rs0 serves the region, rs1 (the target) its neighbours; every key written once. */
  private static SimCluster cluster() {
    SimCluster c = new SimCluster(2);
    c.place(LOW, TARGET);
    c.place(REGION, SOURCE);
    c.place(HIGH, TARGET);
    for (int i = 0; i < c.keys.size(); i++) {
      c.write();
    }
    return c;
  }

  private static MoveProtocol begin() {
    return MoveProtocol.begin("move-" + REGION.getEncodedName(), REGION, SOURCE, TARGET);
  }

  private static Simulation<SimCluster> simulation() {
    return new Simulation<>(MoveProtocolTest::cluster, c -> begin(), List.of(SOURCE, TARGET));
  }

  /** Drives a protocol, failing the actions {@code failing} picks once each, and names the actions. */
  private static List<String> drive(SimCluster c, Protocol p, java.util.function.Predicate<Action> failing) {
    List<String> names = new ArrayList<>();
    List<Action> failed = new ArrayList<>();
    while (p.next().isPresent()) {
      Action a = p.next().get();
      names.add(name(a));
      if (failing.test(a) && failed.stream().noneMatch(a::equals)) {
        failed.add(a);
        p.failed(a, "injected");
        continue;
      }
      SimCluster.Execution x = c.execute(a);
      x.effects.forEach(effect -> {
        effect.run();
        c.write();
        c.checkInvariants();
      });
      assertThat(x.failure).isNull();
      p.completed(a, x.result.get());
    }
    return names;
  }

  private static String name(Action a) {
    String n = a.getClass().getSimpleName();
    if (a instanceof Action.PersistTxn t) {
      return n + "(" + ((MoveTxn) t.txn()).phase() + ")";
    }
    if (a instanceof Action.SetRegionState s) {
      return n + "(" + s.state() + ")";
    }
    return n;
  }

  @Test
  void aMoveRunsItsStepsInOrderAndEndsWithTheTargetServing() {
    SimCluster c = cluster();
    MoveProtocol p = begin();
    assertThat(drive(c, p, a -> false)).containsExactly("PersistTxn(STARTED)", "SetRegionState(MOVING)", "PreClose",
        "PreOpen", "PersistTxn(PREFETCHED)", "Close", "Open", "PersistTxn(OPENED)", "PublishMove", "OpenRegion",
        "ForgetRegion", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.MOVED);
    assertThat(p.committed()).isTrue();
    assertMoved(c);
    assertThat(c.servers.get(SOURCE).movedTo).containsEntry(REGION.getEncodedName(), TARGET);
  }

  @Test
  void theTargetGetsTheManifestsTheSourceGave() {
    MoveProtocol p = begin();
    p.completed(p.next().orElseThrow());
    p.completed(p.next().orElseThrow());
    Result.Manifest early = new Result.Manifest(new byte[] {1, 2});
    p.completed(p.next().orElseThrow(), early);
    assertThat(((Action.PreOpen) p.next().orElseThrow()).manifest()).isEqualTo(early);
    p.completed(p.next().get());
    p.completed(p.next().get());
    Result.Manifest last = new Result.Manifest(new byte[] {3});
    p.completed(p.next().orElseThrow(), last);
    assertThat(((Action.Open) p.next().orElseThrow()).finalManifest()).isEqualTo(last);
  }

  @Test
  void aFailedOpenRollsBackTargetFirstAndTheSourceServesAgain() {
    SimCluster c = cluster();
    MoveProtocol p = begin();
    List<String> names = drive(c, p, a -> a instanceof Action.Open);
    assertThat(names).containsExactly("PersistTxn(STARTED)", "SetRegionState(MOVING)", "PreClose", "PreOpen",
        "PersistTxn(PREFETCHED)", "Close", "Open", "PersistTxn(ROLLING_BACK)", "AbortMoveIn", "SetRegionState(OPEN)",
        "AbortMoveAway", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.ROLLED_BACK);
    assertThat(p.outcome().get().reason()).contains("Open on rs1");
    assertRolledBack(c);
  }

  @Test
  void afterThePointOfNoReturnAFailedActionIsOfferedAgain() {
    SimCluster c = cluster();
    MoveProtocol p = begin();
    List<String> names = drive(c, p, a -> a instanceof Action.PublishMove || a instanceof Action.ForgetRegion);
    assertThat(names).containsSubsequence("PublishMove", "PublishMove", "OpenRegion", "ForgetRegion", "ForgetRegion");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.MOVED);
    assertMoved(c);
  }

  @Test
  void aMoveToTheSourceIsRefused() {
    MoveProtocol p = MoveProtocol.begin("m", REGION, SOURCE, ServerName.valueOf("rs0", 16020, 99L));
    assertThat(p.next()).isEmpty();
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REFUSED);
  }

  @Test
  void recoveryDecidesFromThePhaseAlone() {
    MoveTxn txn = new MoveTxn("move-x", MoveTxn.Phase.STARTED, REGION, SOURCE, TARGET, "");
    Map<MoveTxn.Phase, Class<?>> first = new EnumMap<>(MoveTxn.Phase.class);
    for (MoveTxn.Phase phase : MoveTxn.Phase.values()) {
      MoveProtocol p = MoveProtocol.recover(txn.at(phase));
      first.put(phase, p.next().orElseThrow().getClass());
      assertThat(p.committed()).as(phase.name()).isEqualTo(phase == MoveTxn.Phase.OPENED);
    }
    assertThat(first).containsEntry(MoveTxn.Phase.STARTED, Action.PersistTxn.class)
        .containsEntry(MoveTxn.Phase.PREFETCHED, Action.PersistTxn.class)
        .containsEntry(MoveTxn.Phase.ROLLING_BACK, Action.AbortMoveIn.class)
        .containsEntry(MoveTxn.Phase.OPENED, Action.PublishMove.class);
  }

  @Test
  void aCrashBetweenTheOpenAndItsRecordRollsBackAndOneAfterGoesForward() {
    Simulation<SimCluster> sim = simulation();
    int opened = sim.pointAfter(Action.Open.class, 1);
    assertThat(checkEnd(sim.run(List.of(new Fault(opened, Simulation.Kind.MASTER_CRASH, null)))))
        .isEqualTo("ROLLED_BACK");
    int recorded = sim.pointAfter(Action.PersistTxn.class, 3);
    assertThat(checkEnd(sim.run(List.of(new Fault(recorded, Simulation.Kind.MASTER_CRASH, null)))))
        .isEqualTo("MOVED");
  }

  @Test
  void everySingleFaultAtEveryPointEndsWithOneOwner() {
    Map<String, Integer> endings = new TreeMap<>();
    int runs = simulation().exhaustive(1, run -> endings.merge(checkEnd(run), 1, Integer::sum));
    assertThat(endings).containsKeys("MOVED", "ROLLED_BACK", "unknown");
    assertThat(runs).isGreaterThan(100);
  }

  @Test
  void everyPairOfFaultsEndsWithOneOwner() {
    Map<String, Integer> endings = new TreeMap<>();
    int runs = simulation().exhaustive(2, run -> endings.merge(checkEnd(run), 1, Integer::sum));
    assertThat(endings).containsKeys("MOVED", "ROLLED_BACK");
    assertThat(runs).isGreaterThan(3500);
  }

  @Test
  void manyRandomSchedulesOfFourFaultsEndWithOneOwner() {
    Map<String, Integer> endings = new TreeMap<>();
    simulation().random(4, 1500, 4, run -> endings.merge(checkEnd(run), 1, Integer::sum));
    assertThat(endings).containsKeys("MOVED", "ROLLED_BACK");
  }

  /** Checks a finished run and names how it ended. */
  private static String checkEnd(Run<SimCluster> run) {
    SimCluster c = run.cluster();
    try {
      assertThat(c.txns).as("transactions left").isEmpty();
      SimCluster.Entry e = c.catalog.get(REGION.getEncodedName());
      String ending;
      if (TARGET.equals(e.server())) {
        assertMoved(c);
        ending = "MOVED";
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

  private static void assertMoved(SimCluster c) {
    assertThat(c.catalog.get(REGION.getEncodedName())).isEqualTo(new SimCluster.Entry(REGION, TARGET, "OPEN"));
    assertThat(c.servers.get(TARGET).open).containsOnlyKeys(LOW.getEncodedName(), REGION.getEncodedName(),
        HIGH.getEncodedName());
    assertThat(c.stored(TARGET)).containsExactlyInAnyOrder(LOW.getEncodedName(), REGION.getEncodedName(),
        HIGH.getEncodedName());
    assertThat(c.servers.get(SOURCE).open).isEmpty();
    assertThat(c.stored(SOURCE)).isEmpty();
    assertThat(c.servers.get(SOURCE).pinned).isEmpty();
  }

  private static void assertRolledBack(SimCluster c) {
    assertThat(c.catalog.get(REGION.getEncodedName())).isEqualTo(new SimCluster.Entry(REGION, SOURCE, "OPEN"));
    assertThat(c.servers.get(SOURCE).open).containsOnlyKeys(REGION.getEncodedName());
    assertThat(c.stored(SOURCE)).containsExactly(REGION.getEncodedName());
    assertThat(c.servers.get(SOURCE).pinned).isEmpty();
    assertThat(c.servers.get(TARGET).open).containsOnlyKeys(LOW.getEncodedName(), HIGH.getEncodedName());
    assertThat(c.stored(TARGET)).containsExactlyInAnyOrder(LOW.getEncodedName(), HIGH.getEncodedName());
  }
}
