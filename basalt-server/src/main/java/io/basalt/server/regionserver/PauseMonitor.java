package io.basalt.server.regionserver;

import io.basalt.storage.replication.ReplicaTimings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows the {@link ServerLease} that this process runs, every few milliseconds, so that a pause (a stopped or
 * starved process) voids the lease the moment the process wakes: a request served on waking finds the last tick
 * too old, or the quiet period the tick that saw the pause started.
 */
final class PauseMonitor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PauseMonitor.class);
  private static final long TICK_MILLIS = 50;

  /**
   * The rule for servers with replica groups. A pause counts from two thirds of the soonest another member can
   * be elected, leaving room for the tick itself; the quiet period lets this server read a newer primary's
   * result (repeated every {@link ReplicaTimings#RESULT_REBROADCAST}) and step down, with a second to spare.
   */
  static ServerLease.PauseRule replicaGroupRule() {
    Duration pause = ReplicaTimings.SOONEST_ELECTION.multipliedBy(2).dividedBy(3);
    Duration quiet = ReplicaTimings.RESULT_REBROADCAST.plusSeconds(1);
    return new ServerLease.PauseRule(pause.toNanos(), quiet.toNanos());
  }

  private final Thread thread;
  private volatile boolean closed;

  PauseMonitor(ServerLease lease, ServerLease.PauseRule rule) {
    long quietMillis = TimeUnit.NANOSECONDS.toMillis(rule.quietNanos());
    thread = new Thread(() -> run(lease, quietMillis), "basalt-pause-monitor");
    thread.setDaemon(true);
    thread.setPriority(Thread.MAX_PRIORITY);
    thread.start();
  }

  private void run(ServerLease lease, long quietMillis) {
    while (!closed) {
      long paused = lease.tick();
      if (paused > 0) {
        LOG.warn("this process was paused for {} ms (GC, SIGSTOP, a starved host): its replica groups may have elected "
            + "other primaries meanwhile, so it serves nothing for {} ms while it learns of them",
            TimeUnit.NANOSECONDS.toMillis(paused), quietMillis);
      }
      try {
        Thread.sleep(TICK_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
