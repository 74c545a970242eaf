package io.basalt.server.master;

import static io.basalt.server.master.ReplicaFixture.server;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.net.Address;
import org.junit.jupiter.api.Test;

class ReplicaRepairTest {
  private static final long AFTER = 10_000;

  private static ReplicaRepair.Plan plan(ReplicaFixture f) {
    return ReplicaRepair.plan(f.view(), AFTER);
  }

  /** 4 servers, server 0 down since {@code since}; 6 regions with a member on server 0. */
  private static ReplicaFixture oneServerGone(long since) {
    ReplicaFixture f = new ReplicaFixture().live(1, 2, 3).down(0, since);
    f.replicated(0, 0, 1, 2);
    f.replicated(1, 0, 2, 3);
    f.replicated(2, 0, 1, 3);
    f.replicated(3, 1, 0, 2);
    f.replicated(4, 2, 3, 0);
    f.replicated(5, 3, 1, 0);
    f.replicated(6, 1, 2, 3);
    return f;
  }

  @Test
  void aServerGoneLongerThanTheDelayHasEachOfItsMembersReplacedOnALiveServerWithoutACopy() {
    ReplicaFixture f = oneServerGone(1_000_000 - AFTER);
    ReplicaRepair.Plan p = plan(f);
    assertThat(p.replacements()).hasSize(6);
    for (ReplicaRepair.Replacement r : p.replacements()) {
      assertThat(r.from()).isEqualTo(server(0));
      assertThat(f.live).contains(r.to());
      assertThat(f.record(r.region()).memberOn(r.to())).as("the new member goes where there is no copy").isEmpty();
    }
    assertThat(p.unplaceable()).isZero();
    assertThat(p.missing()).isEqualTo(6);
    assertThat(p.due()).isEqualTo(6);
  }

  @Test
  void aServerGoneForLessThanTheDelayIsWaitedFor() {
    ReplicaFixture f = oneServerGone(1_000_000 - AFTER + 1);
    ReplicaRepair.Plan p = plan(f);
    assertThat(p.replacements()).isEmpty();
    assertThat(p.missing()).as("its members are missing all the same").isEqualTo(6);
    assertThat(p.due()).isZero();
  }

  @Test
  void aServerThatCameBackUnderANewStartCodeKeepsItsMembers() {
    ReplicaFixture f = oneServerGone(0);
    f.downSince.clear();
    f.live.add(ReplicaFixture.restarted(0));
    assertThat(plan(f).replacements()).isEmpty();
    assertThat(plan(f).missing()).isZero();
  }

  @Test
  void aMissingServerWithoutADownTimeIsNotReplaced() {
    ReplicaFixture f = oneServerGone(0);
    f.downSince.clear();
    assertThat(plan(f).replacements()).isEmpty();
  }

  @Test
  void newMembersGoToTheLeastLoadedServersAndSpreadOut() {
    // Server 4 is empty, servers 1-3 hold a lot: the rebuilt members go to 4 first, then spread.
    ReplicaFixture f = new ReplicaFixture().live(1, 2, 3, 4).down(0, 0);
    for (int i = 0; i < 6; i++) {
      f.replicated(i, 0, 1 + i % 3, 1 + (i + 1) % 3);
    }
    for (int i = 0; i < 6; i++) {
      f.replicated(100 + i, 1, 2, 3);
    }
    List<ReplicaRepair.Replacement> rs = plan(f).replacements();
    assertThat(rs).hasSize(6);
    rs.forEach(f::apply);
    // Before: 1, 2, 3 hold 10 each, 4 none; the 6 go to 4 until it is level with the rest.
    assertThat(rs.stream().filter(r -> r.to().equals(server(4))).count()).isEqualTo(6);
    assertThat(f.membersPerServer().get(server(4).getAddress())).isEqualTo(6);
  }

  @Test
  void aRegionShortOfCopiesGainsMembersOnDistinctServers() {
    ReplicaFixture f = new ReplicaFixture().live(0, 1, 2, 3);
    RegionInfo r = f.replicated(0, 2);
    ReplicaRepair.Plan p = plan(f);
    assertThat(p.replacements()).hasSize(2).allSatisfy(x -> {
      assertThat(x.from()).isNull();
      assertThat(x.to()).isNotEqualTo(server(2));
    });
    assertThat(p.replacements().get(0).to()).isNotEqualTo(p.replacements().get(1).to());
    p.replacements().forEach(f::apply);
    assertThat(f.record(r).members()).hasSize(3);
  }

  @Test
  void withTooFewServersTheRestIsCountedUnplaceable() {
    ReplicaFixture f = new ReplicaFixture().live(0, 1);
    f.replicated(0, 0);
    ReplicaRepair.Plan p = plan(f);
    assertThat(p.replacements()).hasSize(1);
    assertThat(p.unplaceable()).isEqualTo(1);
    assertThat(p.due()).isEqualTo(2);
  }

  @Test
  void regionsHeldByATransactionOfDisabledTablesOrNotOpenAreLeftAlone() {
    ReplicaFixture f = new ReplicaFixture().live(1, 2, 3).down(0, 0);
    RegionInfo held = f.replicated(0, 0, 1, 2);
    f.held.add(held.getEncodedName());
    f.replicated(ReplicaFixture.OFF, 1, 0, 1, 2); // its table is not in the factors: disabled
    RegionInfo closing = f.replicated(2, 0, 2, 3);
    f.regions.set(2, f.record(closing).withState(RegionRecord.MOVING));
    assertThat(plan(f).replacements()).isEmpty();
  }

  @Test
  void decommissionedServersTakeNothingAndKeepTheirMembersWithoutOffload() {
    ReplicaFixture f = new ReplicaFixture().live(1, 2, 3, 4).down(0, 0);
    f.decommissioned.put(server(4).getAddress(), false);
    f.replicated(0, 0, 1, 4);
    f.replicated(1, 0, 2, 3);
    List<ReplicaRepair.Replacement> rs = plan(f).replacements();
    assertThat(rs).hasSize(2).allSatisfy(r -> assertThat(r.to()).isNotEqualTo(server(4)));
    assertThat(rs).noneMatch(r -> server(4).equals(r.from()));
  }

  @Test
  void anOffloadedServerHasItsMembersReplacedAtOnceAndItsOtherRegionsListedToMove() {
    ReplicaFixture f = new ReplicaFixture().live(0, 1, 2, 3);
    f.decommissioned.put(server(0).getAddress(), true);
    f.replicated(0, 0, 1, 2);
    f.replicated(1, 1, 2, 3);
    RegionInfo single = f.unreplicated(0, 0);
    f.unreplicated(1, 1);
    ReplicaRepair.Plan p = plan(f);
    assertThat(p.replacements()).containsExactly(new ReplicaRepair.Replacement(f.regions.get(0).info(), server(0), server(3)));
    assertThat(p.evacuations()).containsExactly(single);
    assertThat(p.missing()).as("its members still serve").isZero();
  }

  @Test
  void anOffloadedServerThatIsDownHasItsMembersReplacedAtOnceButItsOtherRegionsWait() {
    ReplicaFixture f = new ReplicaFixture().live(1, 2, 3).down(0, f0());
    f.decommissioned.put(server(0).getAddress(), true);
    f.replicated(0, 0, 1, 2);
    f.unreplicated(0, 0);
    ReplicaRepair.Plan p = plan(f);
    assertThat(p.replacements()).hasSize(1);
    assertThat(p.evacuations()).as("a move needs its server up").isEmpty();
  }

  private static long f0() {
    return 1_000_000; // gone just now
  }

  @Test
  void regionsWithTheFewestLiveMembersComeFirst() {
    ReplicaFixture f = new ReplicaFixture().live(2, 3, 4, 5).down(0, 0).down(1, 0);
    RegionInfo oneDown = f.replicated(0, 0, 2, 3);
    RegionInfo twoDown = f.replicated(1, 0, 1, 4);
    List<ReplicaRepair.Replacement> rs = plan(f).replacements();
    assertThat(rs).hasSize(3);
    assertThat(rs.get(0).region()).isEqualTo(twoDown);
    assertThat(rs.get(1).region()).isEqualTo(twoDown);
    assertThat(rs.get(2).region()).isEqualTo(oneDown);
  }

  @Test
  void afterTheReplacementsOfRandomClustersEveryRegionHasItsCopiesOnDistinctLiveServers() {
    Random random = new Random(12);
    for (int round = 0; round < 300; round++) {
      ReplicaFixture f = new ReplicaFixture();
      int servers = 4 + random.nextInt(6);
      Set<Integer> gone = new HashSet<>();
      for (int s = 0; s < servers; s++) {
        if (random.nextInt(4) == 0 && gone.size() < servers - 3) {
          gone.add(s);
          f.down(s, random.nextBoolean() ? 0 : f.now - 1);
        } else {
          f.live(s);
          if (random.nextInt(8) == 0) {
            f.decommissioned.put(server(s).getAddress(), random.nextBoolean());
          }
        }
      }
      int regions = 1 + random.nextInt(30);
      for (int i = 0; i < regions; i++) {
        int copies = 1 + random.nextInt(3);
        List<Integer> shuffled = new java.util.ArrayList<>();
        for (int s = 0; s < servers; s++) {
          shuffled.add(s);
        }
        java.util.Collections.shuffle(shuffled, random);
        f.replicated(i, shuffled.subList(0, copies).stream().mapToInt(Integer::intValue).toArray());
      }
      long placeable = f.live.stream().filter(s -> !f.decommissioned.containsKey(s.getAddress())).count();
      ReplicaRepair.Plan p = plan(f);
      p.replacements().forEach(f::apply);
      for (RegionRecord r : f.regions) {
        Set<Address> distinct = new HashSet<>();
        r.members().forEach(m -> assertThat(distinct.add(m.server().getAddress())).as("one copy per server").isTrue());
        for (Member m : r.members()) {
          boolean dueGone = !f.live.stream().anyMatch(m::isOn) && f.downSince.get(m.server().getAddress()) == 0;
          boolean offloaded = f.decommissioned.getOrDefault(m.server().getAddress(), false);
          if (dueGone || offloaded) {
            assertThat(p.unplaceable()).as("round %d: a due member stays only if it had nowhere to go", round)
                .isPositive();
          }
        }
        if (placeable >= 3 + 2) {
          // Enough room everywhere: nothing is left undone.
          assertThat(p.unplaceable()).as("round %d", round).isZero();
          assertThat(r.members()).as("round %d: %s", round, r).hasSize(3);
        }
      }
      assertThat(p.replacements()).allSatisfy(x -> {
        ServerName to = x.to();
        assertThat(f.live).contains(to);
        assertThat(f.decommissioned).doesNotContainKey(to.getAddress());
      });
    }
  }
}
