package io.basalt.server.master;

import static io.basalt.server.master.ReplicaFixture.server;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.catalog.RegionRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.net.Address;
import org.junit.jupiter.api.Test;

class MemberBalancerTest {
  private static IntSummaryStatistics spread(ReplicaFixture f) {
    return f.membersPerServer().entrySet().stream()
        .filter(e -> !f.decommissioned.containsKey(e.getKey())).mapToInt(e -> e.getValue()).summaryStatistics();
  }

  @Test
  void aNewServerGetsItsShareOfMembers() {
    ReplicaFixture f = new ReplicaFixture().live(0, 1, 2, 3);
    for (int i = 0; i < 8; i++) {
      f.replicated(i, 0, 1, 2);
    }
    List<ReplicaRepair.Replacement> plan = MemberBalancer.plan(f.view());
    // 24 members on 4 servers: 6 each, so 6 go to server 3 and each of the others gives 2.
    assertThat(plan).hasSize(6).allSatisfy(r -> assertThat(r.to()).isEqualTo(server(3)));
    assertThat(plan.stream().map(r -> r.region().getEncodedName()).distinct().count()).as("a region moves once").isEqualTo(6);
    plan.forEach(f::apply);
    assertThat(spread(f).getMax() - spread(f).getMin()).isLessThanOrEqualTo(1);
  }

  @Test
  void countsThatDifferByOneAreLeftAlone() {
    ReplicaFixture f = new ReplicaFixture().live(0, 1, 2, 3);
    f.replicated(0, 0, 1, 2);
    f.replicated(1, 1, 2, 3);
    assertThat(MemberBalancer.plan(f.view())).isEmpty();
  }

  @Test
  void aSecondaryMovesBeforeAPrimary() {
    ReplicaFixture f = new ReplicaFixture().live(0, 1, 2, 3);
    f.replicated(0, 0, 1, 2);
    f.replicated(1, 0, 1, 2);
    f.replicated(2, 1, 0, 2);
    // The founder (first member) is primary: server 0 is primary of 0 and 1, a secondary of 2.
    List<ReplicaRepair.Replacement> plan = MemberBalancer.plan(f.view());
    ReplicaRepair.Replacement offZero = plan.stream().filter(r -> r.from().equals(server(0))).findFirst().orElseThrow();
    assertThat(offZero.region()).isEqualTo(f.regions.get(2).info());
  }

  @Test
  void groupsShortOfALiveCopyHeldRegionsAndUnreplicatedRegionsStay() {
    ReplicaFixture f = new ReplicaFixture().live(0, 1, 2, 3).down(4, 0);
    f.replicated(0, 0, 1, 4); // a member is down
    RegionInfo held = f.replicated(1, 0, 1, 2);
    f.held.add(held.getEncodedName());
    for (int i = 0; i < 10; i++) {
      f.unreplicated(i, 0); // Balancer's business, and not counted here
    }
    assertThat(MemberBalancer.plan(f.view())).isEmpty();
  }

  @Test
  void decommissionedServersNeitherGiveNorTake() {
    ReplicaFixture f = new ReplicaFixture().live(0, 1, 2, 3, 4);
    for (int i = 0; i < 6; i++) {
      f.replicated(i, 0, 1, 2);
    }
    f.decommissioned.put(server(3).getAddress(), false);
    f.decommissioned.put(server(0).getAddress(), false);
    List<ReplicaRepair.Replacement> plan = MemberBalancer.plan(f.view());
    assertThat(plan).isNotEmpty().allSatisfy(r -> {
      assertThat(r.to()).isEqualTo(server(4));
      assertThat(r.from()).isNotEqualTo(server(0));
    });
  }

  @Test
  void randomClustersEndWithinOneMemberWhereCopiesAllowAndNeverTwoCopiesOnAServer() {
    Random random = new Random(7);
    for (int round = 0; round < 300; round++) {
      ReplicaFixture f = new ReplicaFixture();
      int servers = 3 + random.nextInt(6);
      for (int s = 0; s < servers; s++) {
        f.live(s);
      }
      // Skewed: members favour the low-numbered servers.
      int regions = random.nextInt(40);
      for (int i = 0; i < regions; i++) {
        List<Integer> order = new ArrayList<>();
        for (int s = 0; s < servers; s++) {
          order.add(s);
        }
        if (random.nextBoolean()) {
          Collections.shuffle(order, random);
        }
        f.replicated(i, order.subList(0, 3).stream().mapToInt(Integer::intValue).toArray());
      }
      IntSummaryStatistics before = spread(f);
      List<ReplicaRepair.Replacement> plan = MemberBalancer.plan(f.view());
      Set<String> moved = new HashSet<>();
      for (ReplicaRepair.Replacement r : plan) {
        assertThat(moved.add(r.region().getEncodedName())).as("round %d: one move per region", round).isTrue();
        assertThat(f.record(r.region()).memberOn(r.to())).as("round %d: target holds no copy", round).isEmpty();
        f.apply(r);
      }
      for (RegionRecord r : f.regions) {
        Set<Address> distinct = new HashSet<>();
        r.members().forEach(m -> assertThat(distinct.add(m.server().getAddress())).isTrue());
        assertThat(r.members()).hasSize(3);
      }
      IntSummaryStatistics after = spread(f);
      assertThat(after.getMax()).as("round %d", round).isLessThanOrEqualTo(before.getMax());
      assertThat(after.getMin()).as("round %d", round).isGreaterThanOrEqualTo(before.getMin());
      // A second plan right away finds nothing it could not have done in the first, or makes progress.
      if (!MemberBalancer.plan(f.view()).isEmpty()) {
        assertThat(after.getMax() - after.getMin()).as("round %d", round).isGreaterThan(1);
      }
    }
  }
}
