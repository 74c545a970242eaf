package io.basalt.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Facts about this machine for a report's header line, read from /proc (Linux); "unknown" elsewhere. */
public final class HostFacts {
  private HostFacts() {}

  /** The processor's model name as {@code " (NAME)"}, empty where it is unknown. */
  public static String cpuModelSuffix() {
    String model = procLine("/proc/cpuinfo", "model name");
    return model == null ? "" : " (" + model.substring(model.indexOf(':') + 1).trim() + ")";
  }

  /** Total memory as {@code "23.5 GB memory"}. */
  public static String memory() {
    String total = procLine("/proc/meminfo", "MemTotal:");
    try {
      return total == null ? "memory unknown"
          : String.format("%.1f GB memory", Long.parseLong(total.replaceAll("\\D", "")) / (1024.0 * 1024));
    } catch (NumberFormatException e) {
      return "memory unknown";
    }
  }

  /** The 1, 5 and 15 minute load averages, as {@code "0.93 3.84 5.37"}. */
  public static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String procLine(String file, String prefix) {
    try {
      for (String line : Files.readAllLines(Path.of(file))) {
        if (line.startsWith(prefix)) {
          return line;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return null;
  }
}
