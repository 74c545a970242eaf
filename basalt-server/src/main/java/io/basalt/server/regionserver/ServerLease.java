package io.basalt.server.regionserver;

import java.util.function.LongSupplier;

/**
 * Fencing: a region server may serve only while it is sure its ZooKeeper session is alive, because once
 * the session expires the master may hand its regions to someone else. Each successful check against
 * ZooKeeper that started at time t proves the session lives until at least t + session timeout (ZooKeeper
 * expires a session only after that long without hearing from it), so the lease runs to t + a safety share
 * of the timeout. A process paused past that (GC, SIGSTOP) wakes up with an expired lease and refuses
 * requests before anything else can run on its behalf.
 *
 * <p>With replica groups a pause shorter than the session can still matter: the group may elect another
 * primary while this process is stopped, and JE's view of the group here (secondaries it thinks it feeds, an
 * election result it has not read yet) is stale when it wakes. So a {@link PauseRule} voids the lease while
 * the process has gone unobserved ({@link #tick} not called) for longer than the rule's pause, and for a quiet
 * period after such a pause, long enough for this server to learn of the other primary and step down.
 */
public final class ServerLease {
  /**
   * A pause of {@code pauseNanos} or more (measured between ticks) voids the lease until {@code quietNanos}
   * after the process is seen running again.
   */
  public record PauseRule(long pauseNanos, long quietNanos) {
    /** Pauses do not void the lease (no replica groups here): only the ZooKeeper session counts. */
    public static final PauseRule NONE = new PauseRule(Long.MAX_VALUE / 4, 0);
  }

  /** A lease that holds until revoked (a master's meta view, which has nothing to fence). */
  public static ServerLease unbounded() {
    ServerLease lease = new ServerLease(Long.MAX_VALUE / 4, PauseRule.NONE, () -> 0L);
    lease.confirmed(0);
    return lease;
  }

  private final long validForNanos;
  private final PauseRule pauses;
  private final LongSupplier clock;
  private volatile long validUntil;
  private volatile boolean revoked = true;
  private volatile long lastTick;
  private volatile long quietUntil;

  /** {@code validForNanos} should be well under the ZooKeeper session timeout (half is a good share). */
  public ServerLease(long validForNanos, LongSupplier clock) {
    this(validForNanos, PauseRule.NONE, clock);
  }

  public ServerLease(long validForNanos, PauseRule pauses, LongSupplier clock) {
    this.validForNanos = validForNanos;
    this.pauses = pauses;
    this.clock = clock;
    this.lastTick = clock.getAsLong();
    this.quietUntil = lastTick;
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

  /**
   * The process is running now (called often, by {@link PauseMonitor}); returns how long it went unobserved
   * before, in nanoseconds, if that was a pause by the rule, else 0.
   */
  public long tick() {
    long now = clock.getAsLong();
    long gap = now - lastTick;
    lastTick = now;
    if (gap >= pauses.pauseNanos()) {
      quietUntil = now + pauses.quietNanos();
      return gap;
    }
    return 0;
  }

  public boolean valid() {
    long now = clock.getAsLong();
    return !revoked && now - validUntil < 0 && now - lastTick < pauses.pauseNanos() && now - quietUntil >= 0;
  }

  public long nanos() {
    return clock.getAsLong();
  }
}
