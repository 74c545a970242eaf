package io.basalt.bench.compare.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A server process's counters from /proc/PID: CPU time of all its threads, memory in use, and bytes it caused
 * to be written to and read from the block device ({@code write_bytes} and {@code read_bytes} of /proc/PID/io: log,
 * WAL, flushes and compactions; reads the page cache did not serve). -1 where Linux does not expose a counter.
 */
public record ProcSnapshot(long cpuNanos, long residentBytes, long diskWriteBytes, long diskReadBytes) {
  /** Linux reports utime/stime in USER_HZ ticks, which is 100 on every mainstream architecture. */
  private static final long NANOS_PER_TICK = 10_000_000L;

  public static ProcSnapshot of(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    return new ProcSnapshot(cpuNanos(proc), residentBytes(proc), field(proc.resolve("io"), "write_bytes:", 1),
        field(proc.resolve("io"), "read_bytes:", 1));
  }

  /** utime + stime of {@code /proc/PID} or {@code /proc/PID/task/TID} (same stat format); -1 if unreadable. */
  static long cpuNanos(Path proc) {
    try {
      String stat = Files.readString(proc.resolve("stat"));
      // Fields after the parenthesised command name (which may hold spaces): state is field 3, utime 14, stime 15.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * Proportional set size (smaps_rollup), not VmRSS: ZGC maps its heap three times, and VmRSS counts every
   * mapping, so it would show Basalt (ZGC) at three times its memory next to HBase (G1). Pss counts each page
   * once per process. VmRSS where smaps_rollup is missing (Linux before 4.14).
   */
  private static long residentBytes(Path proc) {
    long pss = field(proc.resolve("smaps_rollup"), "Pss:", 1024);
    return pss >= 0 ? pss : field(proc.resolve("status"), "VmRSS:", 1024);
  }

  private static long field(Path file, String name, long unit) {
    try {
      List<String> lines = Files.readAllLines(file);
      for (String line : lines) {
        if (line.startsWith(name)) {
          return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]) * unit;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or the process is gone
    }
    return -1;
  }
}
