package io.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.replication.ReplicaTimings;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ServerLeaseTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private final AtomicLong now = new AtomicLong(1_000 * MS);

  @Test
  void aConfirmationHoldsForItsShareOfTheSessionFromWhenTheCheckStarted() {
    ServerLease lease = new ServerLease(3_000 * MS, now::get);
    assertThat(lease.valid()).as("not confirmed yet").isFalse();
    long started = now.get();
    now.addAndGet(200 * MS);
    lease.confirmed(started);
    now.addAndGet(2_700 * MS);
    assertThat(lease.valid()).isTrue();
    now.addAndGet(100 * MS);
    assertThat(lease.valid()).isFalse();
    lease.confirmed(now.get());
    lease.revoke();
    assertThat(lease.valid()).isFalse();
  }

  @Test
  void withoutAPauseRuleAGapBetweenTicksChangesNothing() {
    ServerLease lease = new ServerLease(60_000 * MS, now::get);
    lease.confirmed(now.get());
    now.addAndGet(10_000 * MS);
    assertThat(lease.valid()).isTrue();
    assertThat(lease.tick()).isZero();
    assertThat(lease.valid()).isTrue();
  }

  @Test
  void aWokenProcessServesNothingUntilTheQuietPeriodAfterItsFirstTickHasPassed() {
    ServerLease lease = new ServerLease(60_000 * MS, new ServerLease.PauseRule(1_000 * MS, 3_000 * MS), now::get);
    lease.confirmed(now.get());
    for (int i = 0; i < 20; i++) {
      now.addAndGet(50 * MS);
      assertThat(lease.tick()).isZero();
      assertThat(lease.valid()).isTrue();
    }
    now.addAndGet(4_000 * MS); // SIGSTOP ... SIGCONT
    assertThat(lease.valid()).as("a request served before the monitor runs again").isFalse();
    assertThat(lease.tick()).isEqualTo(4_000 * MS);
    assertThat(lease.valid()).as("the quiet period").isFalse();
    for (int i = 0; i < 59; i++) {
      now.addAndGet(50 * MS);
      assertThat(lease.tick()).isZero();
      assertThat(lease.valid()).as("%d ms after waking", (i + 1) * 50).isFalse();
    }
    now.addAndGet(50 * MS);
    lease.tick();
    assertThat(lease.valid()).isTrue();
  }

  @Test
  void theReplicaGroupRuleCountsAPauseBeforeAnotherPrimaryCanBeElected() {
    ServerLease.PauseRule rule = PauseMonitor.replicaGroupRule();
    assertThat(rule.pauseNanos()).isLessThan(ReplicaTimings.SOONEST_ELECTION.toNanos());
    assertThat(rule.quietNanos()).isGreaterThan(ReplicaTimings.RESULT_REBROADCAST.toNanos());
  }
}
