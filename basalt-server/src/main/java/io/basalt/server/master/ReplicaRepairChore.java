package io.basalt.server.master;

import io.basalt.server.master.ReplicaRepair.Replacement;
import java.io.IOException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs re-replication on the active master: plans afresh ({@link ReplicaRepair}), carries out the most
 * urgent step through {@link Master#replaceMember} or {@link Master#move}, and plans again, one step at a time,
 * until nothing is due. A region whose step fails (a server busy, a group without a primary now) is left alone
 * for 10 s, then tried again. The master runs it every few seconds, when a server joins
 * and when a server is decommissioned.
 */
final class ReplicaRepairChore {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaRepairChore.class);
  /** Bounds one run; the next run carries on. */
  private static final int MAX_STEPS_PER_RUN = 64;
  /** A region whose step failed is left alone this long (its group may need time to elect a primary). */
  private static final long RETRY_AFTER_FAILURE_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

  private final Master master;
  private final ReplicaViews views;
  private final long rereplicateAfterMillis;
  private final BooleanSupplier active;
  /** Regions whose last step failed, with when they may be tried again (System.nanoTime). */
  private final java.util.Map<String, Long> failedUntil = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile ReplicaRepair.Plan last = new ReplicaRepair.Plan(java.util.List.of(), java.util.List.of(), 0, 0);

  ReplicaRepairChore(Master master, ReplicaViews views, long rereplicateAfterMillis, BooleanSupplier active) {
    this.master = master;
    this.views = views;
    this.rereplicateAfterMillis = rereplicateAfterMillis;
    this.active = active;
  }

  /** The plan of the last run (for the gauges and the status). */
  ReplicaRepair.Plan lastPlan() {
    return last;
  }

  /** Returns the number of steps carried out. */
  int run() {
    long now = System.nanoTime();
    failedUntil.values().removeIf(until -> until - now <= 0);
    Set<String> skipped = new HashSet<>(failedUntil.keySet());
    int done = 0;
    for (int step = 0; step < MAX_STEPS_PER_RUN && active.getAsBoolean(); step++) {
      // Planned and carried out under the master's lock (its operations all hold it): a server that returns
      // between the plan and the step cannot have a member it still serves replaced as if it were gone.
      synchronized (master) {
        if (!step(skipped)) {
          return done;
        }
      }
      done++;
    }
    return done;
  }

  /** Plans and carries out the most urgent step; false when nothing (more) can be done in this run. */
  private boolean step(Set<String> skipped) {
    while (true) {
      ReplicaRepair.Plan plan;
      try {
        plan = views.repairPlan(rereplicateAfterMillis);
      } catch (IOException e) {
        LOG.warn("no re-replication while the transactions in flight cannot be read: {}", e.getMessage());
        return false;
      }
      last = plan;
      Optional<Replacement> replace = plan.replacements().stream()
          .filter(r -> !skipped.contains(r.region().getEncodedName())).findFirst();
      Optional<RegionInfo> evacuate = plan.evacuations().stream()
          .filter(r -> !skipped.contains(r.getEncodedName())).findFirst();
      if (replace.isEmpty() && evacuate.isEmpty()) {
        return false;
      }
      RegionInfo region = replace.map(Replacement::region).orElseGet(evacuate::get);
      try {
        if (replace.isPresent()) {
          Replacement r = replace.get();
          LOG.info("re-replicating {}: member on {} replaced by one on {}", region.getRegionNameAsString(),
              r.from() == null ? "(none: the region is short of copies)" : r.from(), r.to());
          master.replaceMember(region, r.from(), r.to());
        } else {
          LOG.info("moving {} off its decommissioned server", region.getRegionNameAsString());
          master.move(region.getRegionName(), null);
        }
        return true;
      } catch (IOException | RuntimeException e) {
        LOG.warn("re-replication of {} failed for now: {}", region.getRegionNameAsString(), e.toString());
        skipped.add(region.getEncodedName()); // and plan again without it
        failedUntil.put(region.getEncodedName(), System.nanoTime() + RETRY_AFTER_FAILURE_NANOS);
      }
    }
  }
}
