package io.basalt.bench.compare;

import io.basalt.bench.report.HostFacts;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/** One line on the machine a comparison ran on: cores, CPU model, memory, OS, JVM, load. */
final class Machine {
  private Machine() {}

  static String describe() {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return String.format(Locale.ROOT, "%d cores%s, %.1f GB memory, %s %s, Java %s, load average %.1f at the start",
        Runtime.getRuntime().availableProcessors(), HostFacts.cpuModelSuffix(), os.getTotalMemorySize() / (double) (1L << 30),
        System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("java.version"),
        os.getSystemLoadAverage());
  }
}
