package io.basalt.bench.storage;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** Counters of this process: CPU time of all its threads, and bytes read through read system calls. */
final class ProcessStats {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final Path PROC_IO = Path.of("/proc/self/io");

  private ProcessStats() {}

  /** CPU nanoseconds used by the whole process (every thread: workers, JE daemons, GC) so far. */
  static long cpuNanos() {
    return OS.getProcessCpuTime();
  }

  /**
   * Bytes the process has read with read system calls so far ({@code rchar} of /proc/self/io, page-cache
   * hits included), or -1 where that is not available. JE reads its log only on cache misses, so per
   * operation this shows how often a read leaves JE's cache.
   */
  static long readBytes() {
    return ioCounter("rchar:");
  }

  /**
   * Bytes the process has caused to be read from the disk so far ({@code read_bytes} of /proc/self/io: reads the
   * page cache did not serve), or -1 where that is not available.
   */
  static long diskReadBytes() {
    return ioCounter("read_bytes:");
  }

  /** The counter {@code name} of /proc/self/io, or -1 where that is not available. */
  private static long ioCounter(String name) {
    try {
      for (String line : Files.readAllLines(PROC_IO)) {
        if (line.startsWith(name)) {
          return Long.parseLong(line.substring(name.length()).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or /proc not mounted
    }
    return -1;
  }

  static long totalMemoryBytes() {
    return OS.getTotalMemorySize();
  }
}
