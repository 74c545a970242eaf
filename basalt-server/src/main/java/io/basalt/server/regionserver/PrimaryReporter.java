package io.basalt.server.regionserver;

import io.basalt.server.catalog.Primaries;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.ServerName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the members of this server that their groups elect ({@link Primaries}), so clients are sent
 * to them. A report is made when a member's role changes and checked again every few seconds: a report
 * that lost a race with another member's (one made just before a pause) is put right once this member is
 * the only one its group calls primary.
 */
public final class PrimaryReporter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PrimaryReporter.class);

  private final Primaries primaries;
  private final ServerName self;
  private final Function<String, HostedRegion> hosted;
  private final Supplier<? extends Iterable<HostedRegion>> primaryMembers;
  private final ServerLease lease;
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "basalt-primary-reporter");
    t.setDaemon(true);
    return t;
  });
  /** What this server last wrote or read for each region it reported. */
  private final Map<String, ServerName> known = new ConcurrentHashMap<>();

  PrimaryReporter(Primaries primaries, ServerName self, Function<String, HostedRegion> hosted,
      Supplier<? extends Iterable<HostedRegion>> primaryMembers, ServerLease lease, long recheckMillis) {
    this.lease = lease;
    this.primaries = primaries;
    this.self = self;
    this.hosted = hosted;
    this.primaryMembers = primaryMembers;
    executor.scheduleWithFixedDelay(this::recheck, recheckMillis, recheckMillis, TimeUnit.MILLISECONDS);
  }

  /** A member's role changed (any thread): report it if it is primary now. */
  void roleChanged(String encodedRegion) {
    known.remove(encodedRegion);
    executor.execute(() -> report(encodedRegion, false));
  }

  /**
   * Reports the member if it is primary. A server that just woke from a pause may still believe its member
   * is primary while its group elected another: it reports nothing while its lease is not confirmed, and
   * checks the role again right before it writes.
   */
  private void report(String encodedRegion, boolean verify) {
    if (!isPrimaryHere(encodedRegion)) {
      return;
    }
    try {
      if (verify) {
        Optional<ServerName> recorded = primaries.read(encodedRegion);
        if (recorded.isPresent() && recorded.get().equals(self)) {
          known.put(encodedRegion, self);
          return;
        }
      } else if (self.equals(known.get(encodedRegion))) {
        return;
      }
      if (!isPrimaryHere(encodedRegion)) {
        return;
      }
      primaries.publish(encodedRegion, self);
      known.put(encodedRegion, self);
      LOG.info("{} is the primary of region {}", self, encodedRegion);
    } catch (Exception e) {
      LOG.warn("could not publish the primary of {} (retried): {}", encodedRegion, e.toString());
    }
  }

  private boolean isPrimaryHere(String encodedRegion) {
    HostedRegion r = hosted.apply(encodedRegion);
    return r != null && r.replicated() && r.primary() && lease.valid();
  }

  private void recheck() {
    for (HostedRegion r : primaryMembers.get()) {
      report(r.info().getEncodedName(), true);
    }
    known.keySet().removeIf(encoded -> hosted.apply(encoded) == null);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
