package io.basalt.server.master;

import static io.basalt.server.master.ReplicaFixture.server;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.control.RegionServerControl;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ServerManagerTest {
  private final AtomicLong clock = new AtomicLong(1_000);
  /** A channel no test calls: only the bookkeeping is under test. */
  private static final RegionServerControl UNUSED = (RegionServerControl) java.lang.reflect.Proxy.newProxyInstance(
      RegionServerControl.class.getClassLoader(), new Class<?>[] {RegionServerControl.class}, (p, m, a) -> {
        throw new UnsupportedOperationException(m.getName());
      });
  private final ServerManager servers = new ServerManager(s -> UNUSED, clock::get);

  @Test
  void aServerIsGoneSinceItsRegistrationVanishedUntilItReturnsUnderAnyStartCode() {
    servers.up(server(0));
    servers.up(server(1));
    assertThat(servers.downSince()).isEmpty();
    clock.set(2_000);
    servers.down(server(0));
    clock.set(5_000);
    servers.down(server(0)); // a repeated event does not restart the clock
    assertThat(servers.downSince()).isEqualTo(Map.of(server(0).getAddress(), 2_000L));
    servers.up(ReplicaFixture.restarted(0));
    assertThat(servers.downSince()).isEmpty();
  }

  @Test
  void theOldIncarnationOfARestartedServerGoingAwayIsNotADowntime() {
    servers.up(server(0));
    servers.up(ReplicaFixture.restarted(0));
    servers.down(server(0));
    assertThat(servers.downSince()).isEmpty();
    assertThat(servers.live()).containsExactly(ReplicaFixture.restarted(0));
  }

  @Test
  void aServerTheMasterNeverSawIsGoneFromWhenItIsFirstNoticed() {
    servers.up(server(1));
    clock.set(7_000);
    servers.noticeMissing(server(0));
    servers.noticeMissing(server(1)); // live: nothing
    clock.set(9_000);
    servers.noticeMissing(server(0));
    assertThat(servers.downSince()).isEqualTo(Map.of(server(0).getAddress(), 7_000L));
  }

  @Test
  void decommissionedServersAreLiveButTakeNothingNew() {
    servers.up(server(0));
    servers.up(server(1));
    servers.setDecommissioned(Map.of(ReplicaFixture.restarted(0).getAddress(), true));
    assertThat(servers.isDecommissioned(server(0))).isTrue();
    assertThat(servers.live()).containsExactly(server(0), server(1));
    assertThat(servers.placeable()).containsExactly(server(1));
  }
}
