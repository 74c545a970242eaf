package io.basalt.bench.compare.measure;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time a JVM's compiler threads and garbage collector threads have used so far, summed over its live threads
 * ({@code /proc/PID/task/TID/stat}, grouped by the thread name in {@code comm}). The rest of its CPU is the
 * server's own work. A thread that ended is no longer listed, so a window's figures are taken from threads alive at
 * both ends; JIT and GC threads live as long as the JVM. -1 where Linux does not expose them.
 */
public record ThreadCpu(long jitNanos, long gcNanos) {
  public static ThreadCpu of(long pid) {
    long jit = 0;
    long gc = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        try {
          String name = Files.readString(task.resolve("comm")).trim();
          boolean isJit = isJit(name);
          if (!isJit && !isGc(name)) {
            continue;
          }
          long nanos = ProcSnapshot.cpuNanos(task);
          if (nanos < 0) {
            continue; // the thread ended while we listed them
          }
          if (isJit) {
            jit += nanos;
          } else {
            gc += nanos;
          }
        } catch (IOException | RuntimeException endedMeanwhile) {
          // the thread ended while we listed them
        }
      }
    } catch (IOException | RuntimeException e) {
      return new ThreadCpu(-1, -1);
    }
    return new ThreadCpu(jit, gc);
  }

  /** HotSpot's compiler threads: "C1 CompilerThread0", "C2 CompilerThread1" (comm keeps 15 characters). */
  static boolean isJit(String name) {
    return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
  }

  private static final java.util.List<String> GC_PREFIXES = java.util.List.of("GC Thread", "G1 ", "ZWorker",
      "ZRuntime", "ZDriver", "ZDirector", "ZStat", "ZUncommit", "ZUnmap");

  /** G1's threads (GC Thread#N, G1 Conc#N, G1 Refine#N, ...) and ZGC's (ZWorker#N, ZDriver, ZDirector, ...). */
  static boolean isGc(String name) {
    for (String prefix : GC_PREFIXES) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** What the threads used between {@code earlier} and this reading; -1 if either is unknown. */
  public ThreadCpu since(ThreadCpu earlier) {
    return jitNanos < 0 || earlier.jitNanos < 0 ? new ThreadCpu(-1, -1)
        : new ThreadCpu(jitNanos - earlier.jitNanos, gcNanos - earlier.gcNanos);
  }
}
