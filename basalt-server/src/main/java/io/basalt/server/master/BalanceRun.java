package io.basalt.server.master;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One balancer run: region and primary moves ({@link Master#balancePlan}), then member moves ({@link
 * MemberBalancer}), one at a time with a pause between two, so clients feel one short blip at a time
 * (paper §IV.C).
 */
final class BalanceRun {
  private static final Logger LOG = LoggerFactory.getLogger(BalanceRun.class);

  private BalanceRun() {}

  /** Returns the number of moves made. */
  static int run(Master master, long pauseMillis) throws InterruptedException {
    int done = 0;
    for (Balancer.Move m : master.balancePlan()) {
      if (done > 0) {
        Thread.sleep(pauseMillis);
      }
      try {
        master.move(m.region().getRegionName(), m.to());
        done++;
      } catch (IOException e) {
        LOG.warn("balancer move of {} failed: {}", m.region().getRegionNameAsString(), e.toString());
      }
    }
    // Members last, planned afresh: the moves above changed primaries, not where the copies are.
    for (ReplicaRepair.Replacement m : master.views().memberBalancePlan()) {
      if (done > 0) {
        Thread.sleep(pauseMillis);
      }
      try {
        master.replaceMember(m.region(), m.from(), m.to());
        done++;
      } catch (IOException e) {
        LOG.warn("balancer move of the member of {} on {} failed: {}", m.region().getRegionNameAsString(), m.from(),
            e.toString());
      }
    }
    return done;
  }
}
