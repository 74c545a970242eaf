package io.basalt.server.regionserver;

import java.util.function.LongSupplier;

/**
 * Fencing: a region server may serve only while it is sure its ZooKeeper session is alive, because once
 * the session expires the master may hand its regions to someone else. Each successful check against
 * ZooKeeper that started at time t proves the session lives until at least t + session timeout (ZooKeeper
 * expires a session only after that long without hearing from it), so the lease runs to t + a safety share
 * of the timeout. A process paused past that (GC, SIGSTOP) wakes up with an expired lease and refuses
 * requests before anything else can run on its behalf.
 */
public final class ServerLease {
  /** A lease that holds until revoked (a master's meta view, which has nothing to fence). */
  public static ServerLease unbounded() {
    ServerLease lease = new ServerLease(Long.MAX_VALUE / 4, () -> 0L);
    lease.confirmed(0);
    return lease;
  }

  private final long validForNanos;
  private final LongSupplier clock;
  private volatile long validUntil;
  private volatile boolean revoked = true;

  /** {@code validForNanos} should be well under the ZooKeeper session timeout (half is a good share). */
  public ServerLease(long validForNanos, LongSupplier clock) {
    this.validForNanos = validForNanos;
    this.clock = clock;
  }

  /** Records a confirmation of the session by a check that was started at {@code checkStartedNanos}. */
  public void confirmed(long checkStartedNanos) {
    validUntil = checkStartedNanos + validForNanos;
    revoked = false;
  }

  /** The session is lost (or the server is stopping): nothing is served until a new confirmation. */
  public void revoke() {
    revoked = true;
  }

  public boolean valid() {
    return !revoked && clock.getAsLong() - validUntil < 0;
  }

  public long nanos() {
    return clock.getAsLong();
  }
}
