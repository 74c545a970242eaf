package io.basalt.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sleepycat.je.rep.ReplicationNetworkConfig;
import com.sleepycat.je.rep.util.ReplicationGroupAdmin;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.je.GuardedChannelFactory;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.testing.FreePorts;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * JE's replication ports admit cluster members only: a group of three engines guarded by one cluster
 * secret elects a primary and replicates; JE's own group admin client reaches the group with the secret,
 * and neither without it (plain JE connections) nor with another cluster's secret.
 */
@Timeout(120)
class GuardedReplicationTest {
  private static final byte[] F = Bytes.of("f");
  private static final RegionDescriptor DESCRIPTOR = new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL);

  @TempDir Path dir;
  private final List<JeStorageEngine> engines = new ArrayList<>();
  private final List<ReplicatedRegion> members = new ArrayList<>();

  @AfterEach
  void close() {
    members.forEach(m -> {
      try {
        m.close();
      } catch (RuntimeException ignored) {
        // already closed
      }
    });
    engines.forEach(JeStorageEngine::close);
  }

  @Test
  void onlyHoldersOfTheClusterSecretReachTheReplicationPorts() throws Exception {
    ClusterSecret secret = ClusterSecret.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    MemberChannelGuard guard = new MemberChannelGuard(secret);
    int[] ports = FreePorts.take(3);
    members.add(engine(guard).createGroup(dir.resolve("m0"), DESCRIPTOR, member(ports, 0), RoleListener.NONE));
    for (int i = 1; i < 3; i++) {
      members.add(engine(guard).joinGroup(dir.resolve("m" + i), member(ports, i), RoleListener.NONE));
    }
    ReplicatedRegion primary = null;
    for (long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos(); primary == null; Thread.sleep(50)) {
      primary = members.stream().filter(m -> m.role() == ReplicaRole.PRIMARY).findFirst().orElse(null);
      assertThat(System.nanoTime()).as("a primary is elected over guarded channels").isLessThan(deadline);
    }
    primary.mutate(RowMutation.of(Bytes.of("row")).put(F, Bytes.of("q"), 1, Bytes.of("v")).build(), Durability.SYNC_WAL);
    for (ReplicatedRegion m : members) {
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (m.get(Bytes.of("row"), ReadOptions.DEFAULT).isEmpty()) {
        assertThat(System.nanoTime()).as("the write reaches every member").isLessThan(deadline);
        Thread.sleep(50);
      }
    }

    Set<InetSocketAddress> helpers = Set.of(new InetSocketAddress("127.0.0.1", ports[0]));
    assertThat(new ReplicationGroupAdmin("g1", helpers, GuardedChannelFactory.networkConfig(guard)).getGroup()
        .getNodes()).hasSize(3);
    assertThatThrownBy(() -> new ReplicationGroupAdmin("g1", helpers, ReplicationNetworkConfig.createDefault())
        .getGroup()).as("a plain JE connection").isInstanceOf(RuntimeException.class);
    MemberChannelGuard otherCluster = new MemberChannelGuard(ClusterSecret.of(new byte[16]));
    assertThatThrownBy(() -> new ReplicationGroupAdmin("g1", helpers, GuardedChannelFactory.networkConfig(otherCluster))
        .getGroup()).as("another cluster's secret").isInstanceOf(RuntimeException.class);
  }

  private JeStorageEngine engine(MemberChannelGuard guard) {
    JeStorageEngine e = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(16 << 20).withPurgeIntervalMillis(0));
    e.guardReplication(guard);
    engines.add(e);
    return e;
  }

  private static GroupMembership member(int[] ports, int i) {
    List<String> helpers = new ArrayList<>();
    for (int j = 0; j < ports.length; j++) {
      if (j != i) {
        helpers.add("127.0.0.1:" + ports[j]);
      }
    }
    return new GroupMembership("g1", "node" + i, "127.0.0.1", ports[i], helpers);
  }

}
