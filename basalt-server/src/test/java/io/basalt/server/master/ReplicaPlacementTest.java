package io.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.Test;

class ReplicaPlacementTest {
  private static final ServerName S1 = ServerName.valueOf("h1", 1, 1);
  private static final ServerName S2 = ServerName.valueOf("h2", 1, 1);
  private static final ServerName S3 = ServerName.valueOf("h3", 1, 1);
  private static final ServerName S4 = ServerName.valueOf("h4", 1, 1);

  @Test
  void picksTheLeastLoadedServersAndFoundsOnTheOneWithFewestPrimaries() {
    List<ServerName> chosen = ReplicaPlacement.choose(Map.of(S1, 5, S2, 1, S3, 2, S4, 1), Map.of(S2, 3, S4, 0, S3, 1),
        3);
    assertThat(chosen).containsExactlyInAnyOrder(S2, S3, S4);
    assertThat(chosen.get(0)).as("founder: fewest primaries").isEqualTo(S4);
  }

  @Test
  void withFewerServersThanCopiesTheRegionGetsWhatThereIs() {
    assertThat(ReplicaPlacement.choose(Map.of(S1, 0, S2, 0), Map.of(), 3)).containsExactly(S1, S2);
  }
}
