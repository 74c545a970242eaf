package io.basalt.server.master.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.catalog.Member;
import io.basalt.server.master.protocol.GroupMergeTxn.Side;
import io.basalt.server.master.protocol.Outcome.Kind;
import io.basalt.server.master.protocol.SimCluster.Write;
import io.basalt.server.master.protocol.Simulation.Fault;
import io.basalt.server.master.protocol.Simulation.Run;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.junit.jupiter.api.Test;

/**
 * The merge of two replicated regions against a simulated cluster of replica groups: its steps in order, the check
 * that every member closed at its region's barrier, and a crash of the master or of any server, or a failed action,
 * between any two steps (and any two of them), each run checked for: one writable primary per key, every
 * acknowledged write held by a majority of the routed region's members, no diverging logs, no region served that the
 * catalog does not name (but the merged one while it is built), and at the end either the merge done (the old
 * regions' directories gone everywhere) or undone (both regions served, no merged directory left).
 */
class GroupMergeProtocolTest {
  private static final RegionInfo LOW = SimCluster.region("", "k20", 1);
  private static final RegionInfo A = SimCluster.region("k20", "k40", 1);
  private static final RegionInfo B = SimCluster.region("k40", "k60", 1);
  private static final RegionInfo HIGH = SimCluster.region("k60", "", 1);
  private static final long MERGED_ID = 2;
  private static final ServerName RS0 = SimCluster.server(0);
  private static final ServerName RS1 = SimCluster.server(1);
  private static final ServerName RS2 = SimCluster.server(2);
  private static final List<ServerName> SERVERS = List.of(RS0, RS1, RS2);

  /** Every region a group of three on rs0..rs2; A's primary on rs1, B's on rs2; every key written once. */
  private static SimMergeGroups cluster() {
    SimMergeGroups c = new SimMergeGroups(3);
    c.place(LOW, SERVERS);
    c.place(A, List.of(RS1, RS0, RS2));
    c.place(B, List.of(RS2, RS0, RS1));
    c.place(HIGH, SERVERS);
    for (int i = 0; i < c.keys.size(); i++) {
      assertThat(c.write()).isTrue();
    }
    return c;
  }

  private static Side side(SimMergeGroups c, RegionInfo r) {
    SimSplitGroups.Entry e = c.entry(r);
    return new Side(r, "group-" + r.getEncodedName(), e.primary(), e.members());
  }

  private static GroupMergeProtocol begin(SimMergeGroups c, boolean baseIsLower) {
    return GroupMergeProtocol.begin("gmerge-" + A.getEncodedName(), side(c, A), side(c, B), baseIsLower, MERGED_ID);
  }

  private static Simulation<SimMergeGroups> simulation(boolean baseIsLower, List<ServerName> crashable) {
    return new Simulation<>(GroupMergeProtocolTest::cluster, c -> begin(c, baseIsLower), crashable);
  }

  private static List<String> drive(SimMergeGroups c, Protocol p) {
    List<String> names = new ArrayList<>();
    while (p.next().isPresent()) {
      Action a = p.next().get();
      names.add(name(a));
      SimCluster.Execution x = c.execute(a);
      x.effects.forEach(Runnable::run);
      c.write();
      c.checkInvariants();
      assertThat(x.failure).as("%s", a).isNull();
      assertThat(x.lateFailure.get()).as("%s", a).isNull();
      p.completed(a, x.result.get());
    }
    return names;
  }

  private static String name(Action a) {
    String n = a.getClass().getSimpleName();
    if (a instanceof Action.InParallel p) {
      return p.parts().stream().map(GroupMergeProtocolTest::name).toList().toString();
    }
    if (a instanceof Action.PersistTxn t) {
      return n + "(" + ((GroupMergeTxn) t.txn()).phase() + ")";
    }
    if (a instanceof Action.SetRegionState s) {
      return n + "(" + s.state() + ")";
    }
    if (a.site().regionServer() != null) {
      return n + "(" + a.site().regionServer().getHostname() + ")";
    }
    return n;
  }

  @Test
  void aMergeSealsBothClosesSecondariesThenPrimariesFillsOnTheFounderAndPublishesOnceAllHoldTheCopy() {
    SimMergeGroups c = cluster();
    GroupMergeProtocol p = begin(c, true);
    assertThat(drive(c, p)).containsExactly("ChooseMergedPorts", "PersistTxn(STARTED)", "SetRegionState(MERGING)",
        "SetRegionState(MERGING)", "[SealGroup(rs1), SealGroup(rs2)]",
        "[CloseMemberForMerge(rs0), CloseMemberForMerge(rs2), CloseMemberForMerge(rs0), CloseMemberForMerge(rs1)]",
        "[CloseMemberForMerge(rs1), CloseMemberForMerge(rs2)]", "FoundMergedGroup(rs0)", "PersistTxn(FILLED)",
        "OpenDaughterMember(rs0)", "[OpenDaughterMember(rs0), JoinMergedMember(rs1), JoinMergedMember(rs2)]",
        "PublishGroupMerge", "PersistTxn(PUBLISHED)",
        "[DropRegionFiles(rs1), DropRegionFiles(rs0), DropRegionFiles(rs2), DropRegionFiles(rs2), "
            + "DropRegionFiles(rs0), DropRegionFiles(rs1)]", "DeleteTxn");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.MERGED);
    GroupMergeTxn t = p.txn().orElseThrow();
    SimSplitGroups.Entry merged = c.entry(t.merged());
    assertThat(merged.region().getStartKey()).isEqualTo(A.getStartKey());
    assertThat(merged.region().getEndKey()).isEqualTo(B.getEndKey());
    assertThat(merged.primary()).as("the founder: a base secondary that also holds a member of B").isEqualTo(RS0);
    assertThat(merged.members()).hasSize(3);
    assertThat(merged.members().stream().map(m -> m.server().getHostname()).distinct()).hasSize(3);
    Set<String> ports = new HashSet<>();
    c.catalog.values().forEach(e -> e.members().forEach(m -> ports.add(m.server().getHostname() + ":" + m.port())));
    assertThat(ports).as("no port shared by two regions").hasSize(9);
    assertThat(c.entry(A)).isNull();
    assertThat(c.entry(B)).isNull();
    for (ServerName s : SERVERS) {
      assertThat(c.stored(s)).containsExactlyInAnyOrder(LOW.getEncodedName(), t.merged().getEncodedName(),
          HIGH.getEncodedName());
    }
    for (Member m : merged.members()) {
      List<Write> log = c.servers.get(m.server()).dirs.get(t.merged().getEncodedName());
      for (String key : List.of("k20", "k36", "k40", "k56")) {
        assertThat(SimMergeGroups.latest(log, key)).as("%s on %s", key, m.server()).isEqualTo(c.acked.get(key));
      }
    }
    assertThat(c.txns).isEmpty();
    c.checkAllServed();
  }

  @Test
  void theUpperRegionCanBeTheBase() {
    SimMergeGroups c = cluster();
    GroupMergeProtocol p = begin(c, false);
    List<String> steps = drive(c, p);
    assertThat(steps).contains("FoundMergedGroup(rs0)");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.MERGED);
    c.checkAllServed();
  }

  @Test
  void aMemberThatClosesAwayFromTheBarrierRollsTheMergeBack() {
    SimMergeGroups c = cluster();
    GroupMergeProtocol p = begin(c, true);
    while (p.next().isPresent()) {
      Action a = p.next().get();
      SimCluster.Execution x = c.execute(a);
      x.effects.forEach(Runnable::run);
      assertThat(x.failure).isNull();
      if (a instanceof Action.InParallel closes && closes.parts().get(0) instanceof GroupMergeActions.CloseMemberForMerge
          && closes.parts().size() == 4) {
        // B's primary logged something after its barrier (say, maintenance that was not stopped).
        c.servers.get(RS2).dirs.get(B.getEncodedName()).add(new Write("k45", "after the barrier"));
      }
      p.completed(a, x.result.get());
      c.checkInvariants();
    }
    assertThat(p.outcome()).get().satisfies(o -> {
      assertThat(o.kind()).isEqualTo(Kind.ROLLED_BACK);
      assertThat(o.reason()).contains("not at the barrier");
    });
    assertThat(c.entry(A).state()).isEqualTo("OPEN");
    assertThat(c.entry(B).state()).isEqualTo("OPEN");
    for (ServerName s : SERVERS) {
      assertThat(c.stored(s)).containsExactlyInAnyOrder(LOW.getEncodedName(), A.getEncodedName(),
          B.getEncodedName(), HIGH.getEncodedName());
    }
    c.checkAllServed();
  }

  @Test
  void aGroupWithAMemberDownIsNotSealedAndBothKeepServing() {
    SimMergeGroups c = cluster();
    c.servers.get(RS1).open.remove(B.getEncodedName());
    GroupMergeProtocol p = begin(c, true);
    List<String> failures = new ArrayList<>();
    while (p.next().isPresent()) {
      Action a = p.next().get();
      SimCluster.Execution x = c.execute(a);
      x.effects.forEach(Runnable::run);
      String failure = x.failure != null ? x.failure : x.lateFailure.get();
      if (failure != null) {
        failures.add(failure);
        p.failed(a, failure);
      } else {
        p.completed(a, x.result.get());
      }
      c.checkInvariants();
    }
    assertThat(failures).singleElement().asString().contains("acknowledged the barrier");
    assertThat(p.outcome()).get().extracting(Outcome::kind).isEqualTo(Kind.ROLLED_BACK);
    c.newMaster();
    c.checkAllServed();
  }

  @Test
  void noServerHoldingMembersOfBothIsRefusedAtTheStart() {
    List<Member> elsewhere = List.of(new Member(ServerName.valueOf("rs7", 16020, 1), 16500),
        new Member(ServerName.valueOf("rs8", 16020, 1), 16500), new Member(ServerName.valueOf("rs9", 16020, 1), 16500));
    SimMergeGroups c = cluster();
    Side b = new Side(B, "g", elsewhere.get(0).server(), elsewhere);
    assertThatThrownBy(() -> GroupMergeProtocol.begin("x", side(c, A), b, true, MERGED_ID))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no server holds members of both");
  }

  @Test
  void portsThatCollideWithTheRegionsEndItBeforeAnythingIsRecorded() {
    SimMergeGroups c = cluster();
    GroupMergeProtocol p = begin(c, true);
    Action choose = p.next().orElseThrow();
    assertThat(choose).isInstanceOf(GroupMergeActions.ChooseMergedPorts.class);
    List<Member> bPorts = new ArrayList<>();
    for (Member m : c.entry(A).members()) {
      bPorts.add(c.entry(B).members().stream().filter(o -> o.isOn(m.server())).findFirst().orElseThrow());
    }
    p.completed(choose, new Result.MergedMembers(bPorts));
    assertThat(p.outcome()).get().satisfies(o -> {
      assertThat(o.kind()).isEqualTo(Kind.ROLLED_BACK);
      assertThat(o.reason()).contains("is taken");
    });
    assertThat(c.txns).isEmpty();
  }

  @Test
  void theRecordRoundTripsAndRefusesCorruption() throws IOException {
    SimMergeGroups c = cluster();
    GroupMergeProtocol p = begin(c, false);
    drive(c, p);
    GroupMergeTxn t = p.txn().orElseThrow().rollingBack("why");
    GroupMergeTxn parsed = (GroupMergeTxn) Txn.parse(t.toBytes());
    assertThat(parsed.toBytes()).isEqualTo(t.toBytes());
    assertThat(parsed.toString()).isEqualTo(t.toString());
    assertThat(parsed.merged()).isEqualTo(t.merged());
    assertThat(Protocol.recover(t.toBytes())).isInstanceOf(GroupMergeProtocol.class);
    byte[] bad = t.toBytes();
    bad[bad.length / 2] ^= 1;
    assertThatThrownBy(() -> Txn.parse(bad)).isInstanceOf(IOException.class).hasMessageContaining("checksum");
    byte[] newer = t.toBytes();
    newer[1] = 9;
    assertThatThrownBy(() -> GroupMergeTxn.parse(newer)).isInstanceOf(IOException.class);
  }

  @Test
  void aMasterCrashAfterTheFillIsRecordedFinishesTheMerge() {
    Simulation<SimMergeGroups> sim = simulation(true, SERVERS);
    int recorded = -1;
    for (Simulation.Step s : sim.run(List.of()).steps()) {
      if (s.action() instanceof Action.PersistTxn t && ((GroupMergeTxn) t.txn()).phase() == GroupMergeTxn.Phase.FILLED) {
        recorded = s.donePoint();
      }
    }
    assertThat(checkEnd(sim.run(List.of(new Fault(recorded, Simulation.Kind.MASTER_CRASH, null))))).isEqualTo("MERGED");
  }

  @Test
  void anyOneFaultAtAnyPointEndsMergedOrRolledBackWithEverythingServed() {
    for (boolean baseIsLower : List.of(true, false)) {
      Set<String> ends = new HashSet<>();
      int runs = simulation(baseIsLower, SERVERS).exhaustive(1, run -> ends.add(checkEnd(run)));
      assertThat(runs).isGreaterThan(100);
      assertThat(ends).contains("MERGED", "ROLLED_BACK");
    }
  }

  @Test
  void anyTwoFaultsEndMergedOrRolledBackWithEverythingServed() {
    // Crashes of the founder's server only (the one-fault and random runs crash every server's): exhaustive pairs
    // over three servers take minutes.
    Set<String> ends = new HashSet<>();
    int runs = simulation(true, List.of(RS0)).exhaustive(2, run -> ends.add(checkEnd(run)));
    assertThat(runs).isGreaterThan(1000);
    assertThat(ends).contains("MERGED", "ROLLED_BACK");
  }

  @Test
  void randomSchedulesOfThreeFaults() {
    simulation(true, SERVERS).random(14, 3000, 3, GroupMergeProtocolTest::checkEnd);
  }

  /**
   * Finishes a run whose protocol may have been abandoned (the master crashed at the very end), then checks the end
   * state: merged (the merged region's members everywhere, the old regions' files gone) or undone (both served, no
   * merged directory), everything writable, nothing acknowledged lost.
   */
  private static String checkEnd(Run<SimMergeGroups> run) {
    SimMergeGroups c = run.cluster();
    assertThat(c.txns).as("a transaction left behind%s", run.describe()).isEmpty();
    c.newMaster();
    boolean merged = c.entry(A) == null;
    for (ServerName s : SERVERS) {
      Set<String> stored = c.stored(s);
      if (merged) {
        assertThat(c.entry(B)).as(run.describe()).isNull();
        assertThat(stored).as("old files on %s%s", s, run.describe()).hasSize(3)
            .doesNotContain(A.getEncodedName(), B.getEncodedName());
      } else {
        assertThat(c.entry(A).state()).as(run.describe()).isEqualTo("OPEN");
        assertThat(c.entry(B).state()).as(run.describe()).isEqualTo("OPEN");
        assertThat(stored).as("leftovers on %s%s", s, run.describe()).containsExactlyInAnyOrder(
            LOW.getEncodedName(), A.getEncodedName(), B.getEncodedName(), HIGH.getEncodedName());
      }
    }
    try {
      c.checkAllServed();
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + run.describe(), e);
    }
    return merged ? "MERGED" : "ROLLED_BACK";
  }
}
