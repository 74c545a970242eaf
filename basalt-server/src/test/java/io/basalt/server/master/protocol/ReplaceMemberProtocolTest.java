package io.basalt.server.master.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.catalog.Member;
import io.basalt.server.master.protocol.Outcome.Kind;
import io.basalt.server.master.protocol.Simulation.Fault;
import io.basalt.server.master.protocol.Simulation.Run;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.Test;

class ReplaceMemberProtocolTest {
  /** One way to change the members: the cluster before, the change, the servers that may crash. */
  private record Scenario(String name, Supplier<SimGroups> setup, Member removed, Member added, boolean makePrimary,
      List<ServerName> crashable, ServerName down) {
    Simulation<SimGroups> simulation() {
      return new Simulation<>(setup, this::begin, crashable);
    }

    ReplaceMemberProtocol begin(SimGroups c) {
      return ReplaceMemberProtocol.begin("member-" + SimGroups.REGION.getEncodedName(), SimGroups.REGION,
          c.catalog, removed, added, removed != null && c.nodes.get(removed.server()).up, makePrimary);
    }

    MemberTxn txn(SimGroups c) {
      return begin(c).txn();
    }
  }

  private static final ServerName RS0 = SimGroups.server(0);
  private static final ServerName RS1 = SimGroups.server(1);
  private static final ServerName RS2 = SimGroups.server(2);
  private static final ServerName RS3 = SimGroups.server(3);

  /** 3 copies on rs0-rs2 (rs0 primary), rs3 without one: Admin.move of the primary's copy to rs3. */
  private static final Scenario LIVE_OLD = new Scenario("live old member", () -> {
    SimGroups c = new SimGroups(4, 3);
    c.ackOrder.add(RS0);
    return c.started(6, null);
  }, SimGroups.member(0), SimGroups.member(3), true, List.of(RS0, RS1, RS2, RS3), null);

  /** A secondary's copy (rs1, which acknowledges first, so rs2 lags) replaced by one on rs3 (no hand-over). */
  private static final Scenario LIVE_SECONDARY = new Scenario("live old secondary", () -> {
    SimGroups c = new SimGroups(4, 3);
    c.ackOrder.add(RS1);
    return c.started(6, null);
  }, SimGroups.member(1), SimGroups.member(3), false, List.of(RS0, RS1, RS2, RS3), null);

  /** rs2's server is down: its copy is replaced by one on rs3. */
  private static final Scenario DEAD_OLD = new Scenario("dead old member", () -> {
    SimGroups c = new SimGroups(4, 3);
    c.ackOrder.add(RS2);
    return c.started(6, RS2);
  }, SimGroups.member(2), SimGroups.member(3), false, List.of(RS0, RS1, RS3), RS2);

  /** A degraded region with 2 copies gains a third. */
  private static final Scenario ADD_ONLY = new Scenario("added member", () -> new SimGroups(3, 2).started(6, null),
      null, SimGroups.member(2), false, List.of(RS0, RS1, RS2), null);

  /** A copy removed without replacement (the primary's, so its role moves first). */
  private static final Scenario SHRINK = new Scenario("removed member", () -> {
    SimGroups c = new SimGroups(3, 3);
    c.ackOrder.add(RS0);
    return c.started(6, null).shrinking();
  }, SimGroups.member(0), null, false, List.of(RS0, RS1, RS2), null);

  private static final List<Scenario> ALL = List.of(LIVE_OLD, LIVE_SECONDARY, DEAD_OLD, ADD_ONLY, SHRINK);

  /** Drives a protocol, failing the actions {@code failing} picks once each, and names the actions. */
  private static List<String> drive(SimGroups c, Protocol p, java.util.function.Predicate<Action> failing) {
    return drive(c, p, failing, true);
  }

  /** {@code writes}: a client write after every effect (without, lagging members stay behind). */
  private static List<String> drive(SimGroups c, Protocol p, java.util.function.Predicate<Action> failing,
      boolean writes) {
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
        if (writes) {
          c.write();
        }
        c.checkInvariants();
      });
      assertThat(x.failure).as(name(a)).isNull();
      assertThat(x.lateFailure.get()).as(name(a)).isNull();
      p.completed(a, x.result.get());
    }
    return names;
  }

  private static String name(Action a) {
    String n = a.getClass().getSimpleName();
    if (a instanceof Action.PersistTxn t) {
      return n + "(" + ((MemberTxn) t.txn()).phase() + ")";
    }
    if (a instanceof Action.PublishMembers m) {
      return n + "(" + m.members().stream().map(x -> x.server().getHostname()).collect(Collectors.joining(",")) + ")";
    }
    if (a.site().isMaster()) {
      return n;
    }
    return n + "(" + a.site().regionServer().getHostname() + ")";
  }

  @Test
  void withTheOldMemberLiveTheNewOneJoinsBeforeTheOldOneGoes() {
    SimGroups c = LIVE_OLD.setup().get();
    ReplaceMemberProtocol p = LIVE_OLD.begin(c);
    assertThat(drive(c, p, a -> false)).containsExactly("PersistTxn(STARTED)", "PublishMembers(rs0,rs1,rs2,rs3)",
        "JoinMember(rs3)", "PersistTxn(JOINED)", "JoinMember(rs3)", "TransferPrimary", "CloseMember(rs0)", "DeleteMember(rs1)",
        "PublishMembers(rs1,rs2,rs3)", "DropMemberFiles(rs0)", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REPLACED);
    assertThat(c.primary).isEqualTo(Member.nodeName(RS3));
    c.checkEnd();
  }

  @Test
  void theOldMemberGoesOnlyOnceTheNewOneHoldsWhatALaggingMemberLacks() {
    // rs0 (primary) and rs1 hold every acknowledged write, rs2 lags, and nothing is written during the
    // change: once rs1 is gone, rs0 and the new member must hold them, or an election of rs2 and the new
    // member would lose them. The simulated group checks it after every effect. (A move hands the primary
    // role to the new member, which catches it up anyway.)
    SimGroups c = LIVE_SECONDARY.setup().get();
    ReplaceMemberProtocol p = LIVE_SECONDARY.begin(c);
    drive(c, p, a -> false, false);
    assertThat(c.nodes.get(RS2).held).as("rs2 lags").isLessThan(c.acked);
    assertThat(c.nodes.get(RS3).held).as("the new member").isEqualTo(c.acked);
    c.checkEnd();
  }

  @Test
  void withTheOldMemberDownItIsDeletedFirst() {
    SimGroups c = DEAD_OLD.setup().get();
    ReplaceMemberProtocol p = DEAD_OLD.begin(c);
    assertThat(drive(c, p, a -> false)).containsExactly("PersistTxn(REMOVING_OLD)", "TransferPrimary",
        "CloseMember(rs2)", "DeleteMember(rs0)", "PublishMembers(rs0,rs1)", "DropMemberFiles(rs2)",
        "PersistTxn(ADDING)", "PublishMembers(rs0,rs1,rs3)", "JoinMember(rs3)", "PersistTxn(JOINED)", "JoinMember(rs3)",
        "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REPLACED);
    c.serverUp(c.nodes.get(RS2));
    c.checkEnd();
  }

  @Test
  void addingFirstWithAMemberDownCannotRecordTheNewMember() {
    // Why a dead member goes first: a group of three with one down has two acknowledgers, and JE records a
    // fourth member with a majority of four.
    SimGroups c = DEAD_OLD.setup().get();
    ReplaceMemberProtocol p = ReplaceMemberProtocol.begin("m", SimGroups.REGION, c.catalog, SimGroups.member(2),
        SimGroups.member(3), true, false);
    p.completed(p.next().orElseThrow());
    Action publish = p.next().orElseThrow();
    c.execute(publish).effects.forEach(Runnable::run);
    p.completed(publish);
    assertThat(c.execute(p.next().orElseThrow()).failure).contains("too few members up");
  }

  @Test
  void aFailedJoinRollsTheAdditionBackAndKeepsTheOldMembers() {
    SimGroups c = LIVE_OLD.setup().get();
    ReplaceMemberProtocol p = LIVE_OLD.begin(c);
    List<String> names = drive(c, p, a -> a instanceof Action.JoinMember);
    assertThat(names).containsExactly("PersistTxn(STARTED)", "PublishMembers(rs0,rs1,rs2,rs3)", "JoinMember(rs3)",
        "PersistTxn(ROLLING_BACK)", "PublishMembers(rs0,rs1,rs2)", "DropMemberFiles(rs3)", "DeleteMember(rs0)",
        "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.ROLLED_BACK);
    assertThat(c.catalog).containsExactly(SimGroups.member(0), SimGroups.member(1), SimGroups.member(2));
    c.checkEnd();
  }

  @Test
  void afterThePointOfNoReturnAFailedActionIsOfferedAgain() {
    SimGroups c = LIVE_OLD.setup().get();
    ReplaceMemberProtocol p = LIVE_OLD.begin(c);
    List<String> names = drive(c, p, a -> a instanceof Action.CloseMember || a instanceof Action.DeleteMember);
    assertThat(names).containsSubsequence("CloseMember(rs0)", "CloseMember(rs0)", "DeleteMember(rs1)",
        "DeleteMember(rs1)");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REPLACED);
    c.checkEnd();
  }

  @Test
  void nonsensicalChangesAreRefusedBeforeTheyStart() {
    List<Member> three = List.of(SimGroups.member(0), SimGroups.member(1), SimGroups.member(2));
    assertThat(ReplaceMemberProtocol.begin("m", SimGroups.REGION, three, SimGroups.member(3), null, true, false)
        .outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REFUSED);
    assertThat(ReplaceMemberProtocol.begin("m", SimGroups.REGION, three, null, SimGroups.member(1), true, false)
        .outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REFUSED);
    assertThat(ReplaceMemberProtocol.begin("m", SimGroups.REGION, List.of(SimGroups.member(0)), SimGroups.member(0),
        null, true, false).outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.REFUSED);
  }

  @Test
  void recoveryDecidesFromThePhaseAlone() {
    MemberTxn txn = LIVE_OLD.txn(LIVE_OLD.setup().get());
    Map<MemberTxn.Phase, String> first = new EnumMap<>(MemberTxn.Phase.class);
    for (MemberTxn.Phase phase : MemberTxn.Phase.values()) {
      ReplaceMemberProtocol p = ReplaceMemberProtocol.recover(txn.at(phase));
      first.put(phase, name(p.next().orElseThrow()));
      assertThat(p.committed()).as(phase.name())
          .isEqualTo(phase == MemberTxn.Phase.JOINED || phase == MemberTxn.Phase.REMOVING_OLD);
    }
    assertThat(first).containsEntry(MemberTxn.Phase.STARTED, "PersistTxn(ROLLING_BACK)")
        .containsEntry(MemberTxn.Phase.ADDING, "PersistTxn(ROLLING_BACK)")
        .containsEntry(MemberTxn.Phase.ROLLING_BACK, "PublishMembers(rs0,rs1,rs2)")
        .containsEntry(MemberTxn.Phase.JOINED, "JoinMember(rs3)")
        .containsEntry(MemberTxn.Phase.REMOVING_OLD, "TransferPrimary");
  }

  @Test
  void recordsRoundTripInEveryPhase() throws IOException {
    for (Scenario s : ALL) {
      MemberTxn txn = s.txn(s.setup().get());
      for (MemberTxn.Phase phase : MemberTxn.Phase.values()) {
        MemberTxn t = phase == MemberTxn.Phase.ROLLING_BACK ? txn.rollingBack("JoinMember on rs3 failed: é")
            : txn.at(phase);
        byte[] bytes = t.toBytes();
        assertThat(Txn.parse(bytes)).isEqualTo(t);
        assertThat(bytes[0]).isEqualTo((byte) 'R');
        assertThat(bytes[1]).isEqualTo((byte) 1);
        bytes[bytes.length / 2] ^= 1;
        byte[] corrupt = bytes;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Txn.parse(corrupt)).isInstanceOf(IOException.class);
      }
    }
    assertThat(java.util.Arrays.stream(MemberTxn.Phase.values()).mapToInt(p -> p.code)).containsExactly(1, 2, 3, 4, 5);
  }

  @Test
  void aCrashBetweenTheJoinAndItsRecordRollsBackAndOneAfterGoesForward() {
    Simulation<SimGroups> sim = LIVE_OLD.simulation();
    int joined = sim.pointAfter(Action.JoinMember.class, 1);
    assertThat(checkEnd(LIVE_OLD, sim.run(List.of(new Fault(joined, Simulation.Kind.MASTER_CRASH, null)))))
        .isEqualTo("ROLLED_BACK");
    int recorded = sim.pointAfter(Action.PersistTxn.class, 2);
    assertThat(checkEnd(LIVE_OLD, sim.run(List.of(new Fault(recorded, Simulation.Kind.MASTER_CRASH, null)))))
        .isEqualTo("REPLACED");
  }

  @Test
  void everySingleFaultAtEveryPointEndsConsistent() {
    for (Scenario s : ALL) {
      Map<String, Integer> endings = new TreeMap<>();
      int runs = s.simulation().exhaustive(1, run -> endings.merge(checkEnd(s, run), 1, Integer::sum));
      assertThat(endings).as(s.name()).containsKey("REPLACED");
      assertThat(runs).as(s.name()).isGreaterThan(50);
    }
  }

  @Test
  void everyPairOfFaultsEndsConsistent() {
    for (Scenario s : ALL) {
      Map<String, Integer> endings = new TreeMap<>();
      int runs = s.simulation().exhaustive(2, run -> endings.merge(checkEnd(s, run), 1, Integer::sum));
      assertThat(endings).as(s.name()).containsKey("REPLACED");
      assertThat(runs).as(s.name()).isGreaterThan(1000);
    }
  }

  @Test
  void manyRandomSchedulesOfFourFaultsEndConsistent() {
    for (Scenario s : ALL) {
      Map<String, Integer> endings = new TreeMap<>();
      s.simulation().random(12, 1500, 4, run -> endings.merge(checkEnd(s, run), 1, Integer::sum));
      assertThat(endings).as(s.name()).containsKey("REPLACED");
    }
  }

  /** Checks a finished run (after the next assignment) and names how it ended. */
  private static String checkEnd(Scenario s, Run<SimGroups> run) {
    SimGroups c = run.cluster();
    try {
      c.newMaster();
      if (s.down() != null) {
        c.serverUp(c.nodes.get(s.down()));
      }
      c.checkEnd();
      MemberTxn txn = s.txn(c);
      Set<Member> now = Set.copyOf(c.catalog);
      String ending;
      if (now.equals(Set.copyOf(txn.result()))) {
        ending = "REPLACED";
      } else {
        // Undone: as before, or, if the old member went first, without it.
        assertThat(now).as("members after an undone change").isIn(Set.copyOf(txn.members()), Set.copyOf(txn.base()));
        ending = "ROLLED_BACK";
      }
      run.outcome().ifPresent(o -> assertThat(o.kind().name()).isEqualTo(ending));
      assertThat(c.write()).as("a write at the end").isTrue();
      c.checkInvariants();
      return run.outcome().isPresent() ? ending : "unknown";
    } catch (AssertionError e) {
      throw new AssertionError(s.name() + ": " + e.getMessage() + run.describe(), e);
    }
  }
}
