package io.basalt.bench.compare.measure;

import io.basalt.bench.compare.launch.ChildJvm;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Waits, before a target's measured run, until the other targets' servers have gone idle. Targets run one after
 * another on one machine, and a write run leaves work behind: HBase flushes its memstores and compacts the new
 * files, JE's cleaner and checkpointer catch up. Without the wait, that work runs inside the next target's measured
 * run and takes its CPU (session 37: 0.28 of this box's 2 cores during Basalt's sequentialWrite 8t buffered run, for
 * 15% of its rate). The measured target's own leftover work is not waited for: on a machine of its own it would
 * run into its next workload too.
 */
public final class QuietWait {
  /** Idle: under a tenth of a core, about what an idle HBase standalone (ZooKeeper, master, region server) uses. */
  public static final double IDLE_CORES = 0.1;
  public static final Duration SAMPLE = Duration.ofSeconds(2);
  public static final Duration LIMIT = Duration.ofSeconds(180);

  /** How long it waited, and whether the others were idle at its end (false: the limit was reached first). */
  public record Result(Duration waited, boolean quiet) {}

  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  private QuietWait() {}

  /** Waits until {@code others} (every JVM of the other targets) are idle; at once if there are none. */
  public static Result forOthers(List<ChildJvm> others) throws InterruptedException {
    if (others.isEmpty()) {
      return new Result(Duration.ZERO, true);
    }
    return until(() -> cpuNanos(others), d -> Thread.sleep(d.toMillis()), IDLE_CORES, SAMPLE, LIMIT);
  }

  /**
   * Samples {@code cpuNanos} (cumulative CPU time; negative where the OS does not expose it) every {@code sample}
   * until one sample used under {@code idleCores} cores, or until {@code limit} has been spent sampling.
   */
  static Result until(LongSupplier cpuNanos, Sleeper sleeper, double idleCores, Duration sample, Duration limit)
      throws InterruptedException {
    Duration waited = Duration.ZERO;
    long before = cpuNanos.getAsLong();
    if (before < 0) {
      return new Result(waited, true);
    }
    while (waited.compareTo(limit) < 0) {
      sleeper.sleep(sample);
      waited = waited.plus(sample);
      long after = cpuNanos.getAsLong();
      if (after < 0) {
        return new Result(waited, true);
      }
      if (after - before < idleCores * sample.toNanos()) {
        return new Result(waited, true);
      }
      before = after;
    }
    return new Result(waited, false);
  }

  /** Summed over the processes; -1 if any is unreadable (not Linux, or one died: the run's checks report that). */
  private static long cpuNanos(List<ChildJvm> processes) {
    long total = 0;
    for (ChildJvm p : processes) {
      long cpu = ProcSnapshot.of(p.pid()).cpuNanos();
      if (cpu < 0) {
        return -1;
      }
      total += cpu;
    }
    return total;
  }
}
