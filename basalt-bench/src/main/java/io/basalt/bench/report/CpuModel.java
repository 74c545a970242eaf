package io.basalt.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The processor's model name for a report's machine line, as {@code " (NAME)"}; empty where it is unknown. */
public final class CpuModel {
  private CpuModel() {}

  public static String suffix() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return " (" + line.substring(line.indexOf(':') + 1).trim() + ")";
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return "";
  }
}
