package io.basalt.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Busy and total jiffies of all cores so far (the first line of {@code /proc/stat}: everything that ran on the
 * machine, not only the measured processes); busy excludes idle and iowait. Zeros where Linux does not expose it.
 */
public record MachineCpu(long busy, long total) {
  public static MachineCpu now() {
    try {
      String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long total = 0;
      // user nice system idle iowait irq softirq steal (guest time is already in user)
      for (int i = 1; i <= Math.min(8, f.length - 1); i++) {
        total += Long.parseLong(f[i]);
      }
      long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
      return new MachineCpu(total - idle, total);
    } catch (IOException | RuntimeException e) {
      return new MachineCpu(0, 0);
    }
  }

  /** What ran between {@code earlier} and this reading. */
  public MachineCpu since(MachineCpu earlier) {
    return new MachineCpu(busy - earlier.busy, total - earlier.total);
  }

  /** Two windows together. */
  public MachineCpu plus(MachineCpu other) {
    return new MachineCpu(busy + other.busy, total + other.total);
  }

  /** Percentage of all cores busy (100 = every core busy); NaN for an empty or unknown window. */
  public double busyPercent() {
    return total <= 0 ? Double.NaN : 100.0 * busy / total;
  }
}
