package io.basalt.server.master;

import static io.basalt.server.master.ReplicaFixture.server;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.catalog.RegionRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.junit.jupiter.api.Test;

class LeftoverMembersTest {
  @Test
  void onlyCopiesOfReplicatedRegionsThatNoLongerListTheServerGo() {
    ReplicaFixture f = new ReplicaFixture();
    RegionInfo rebuilt = f.replicated(0, 1, 2, 3); // server 0's member was replaced by one on 3
    RegionInfo stillMine = f.replicated(1, 0, 1, 2);
    RegionInfo held = f.replicated(2, 1, 2, 3);
    RegionInfo single = f.unreplicated(0, 1); // an unreplicated region whose directory is on 0 (a move's source)
    RegionInfo moving = f.replicated(3, 1, 2, 3);
    RegionInfo disabled = f.replicated(4, 1, 2, 3);
    Map<String, RegionRecord> catalog = new HashMap<>();
    for (RegionRecord r : f.regions) {
      catalog.put(r.info().getEncodedName(), r);
    }
    catalog.put(moving.getEncodedName(), f.record(moving).withState(RegionRecord.MOVING));
    catalog.put(disabled.getEncodedName(), f.record(disabled).withState(RegionRecord.CLOSED));
    List<String> stored = List.of(rebuilt.getEncodedName(), stillMine.getEncodedName(), held.getEncodedName(),
        single.getEncodedName(), moving.getEncodedName(), disabled.getEncodedName(), "unknownregion0123");
    List<RegionInfo> drop = LeftoverMembers.leftovers(ReplicaFixture.restarted(0), stored, catalog,
        Set.of(held.getEncodedName()));
    assertThat(drop).containsExactlyInAnyOrder(rebuilt, disabled);
  }

  @Test
  void aServerMatchesItsMembersByAddressWhateverItsStartCode() {
    ReplicaFixture f = new ReplicaFixture();
    RegionInfo mine = f.replicated(0, 0, 1, 2);
    Map<String, RegionRecord> catalog = Map.of(mine.getEncodedName(), f.record(mine));
    assertThat(LeftoverMembers.leftovers(ReplicaFixture.restarted(0), List.of(mine.getEncodedName()), catalog, Set.of()))
        .isEmpty();
    assertThat(LeftoverMembers.leftovers(server(3), List.of(mine.getEncodedName()), catalog, Set.of()))
        .containsExactly(mine);
  }
}
