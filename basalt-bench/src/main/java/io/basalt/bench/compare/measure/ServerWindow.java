package io.basalt.bench.compare.measure;

import io.basalt.bench.compare.launch.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server side of one measured run of a target, over every JVM the target is made of (one for a standalone
 * server, all the processes of a local cluster): CPU time (and the JIT's and collector's part of it) and disk writes
 * summed over the JVMs during the run, memory summed at its end, GC pauses of all of them (total summed, longest the
 * longest of any).
 */
public final class ServerWindow {
  private final List<ChildJvm> processes;
  private final Map<Path, Long> gcOffsets;
  private final List<ProcSnapshot> before = new ArrayList<>();
  private final List<ThreadCpu> threadsBefore = new ArrayList<>();
  private final List<Long> gcStart = new ArrayList<>();

  /**
   * Starts the window now. {@code gcOffsets}: where each GC log was read up to after the previous run (updated at
   * {@link #close}), so that pauses between runs (loads) count for no run.
   */
  public ServerWindow(List<ChildJvm> processes, Map<Path, Long> gcOffsets) {
    this.processes = processes;
    this.gcOffsets = gcOffsets;
    for (ChildJvm p : processes) {
      gcStart.add(GcLog.since(p.gcLog(), gcOffsets.getOrDefault(p.gcLog(), 0L)).endOffset());
      before.add(ProcSnapshot.of(p.pid()));
      threadsBefore.add(ThreadCpu.of(p.pid()));
    }
  }

  /** The server's counters over the run. Fails if a process died during it (its figures would be partial). */
  public Totals close(String what) throws IOException {
    for (ChildJvm p : processes) {
      if (!p.isAlive()) {
        throw new IOException("server process " + p.pid() + " died during " + what + "; log " + p.log() + ":\n"
            + p.tail(40));
      }
    }
    long cpu = 0;
    long resident = 0;
    long written = 0;
    long read = 0;
    double gcTotal = 0;
    double gcMax = 0;
    long jit = 0;
    long gcThreads = 0;
    for (int i = 0; i < processes.size(); i++) {
      ChildJvm p = processes.get(i);
      ProcSnapshot after = ProcSnapshot.of(p.pid());
      ThreadCpu threads = ThreadCpu.of(p.pid()).since(threadsBefore.get(i));
      jit = sum(jit, threads.jitNanos());
      gcThreads = sum(gcThreads, threads.gcNanos());
      cpu = sum(cpu, after.cpuNanos() < 0 || before.get(i).cpuNanos() < 0 ? -1 : after.cpuNanos() - before.get(i).cpuNanos());
      resident = sum(resident, after.residentBytes());
      written = sum(written, after.diskWriteBytes() < 0 || before.get(i).diskWriteBytes() < 0 ? -1
          : after.diskWriteBytes() - before.get(i).diskWriteBytes());
      read = sum(read, after.diskReadBytes() < 0 || before.get(i).diskReadBytes() < 0 ? -1
          : after.diskReadBytes() - before.get(i).diskReadBytes());
      GcLog.Pauses gc = GcLog.since(p.gcLog(), gcStart.get(i));
      gcOffsets.put(p.gcLog(), gc.endOffset());
      gcTotal += gc.totalMillis();
      gcMax = Math.max(gcMax, gc.maxMillis());
    }
    return new Totals(cpu, resident, written, read, gcTotal, gcMax, jit, gcThreads);
  }

  /** -1 (not exposed by this OS) stays -1. */
  private static long sum(long total, long value) {
    return total < 0 || value < 0 ? -1 : total + value;
  }

  /**
   * Server counters over a run; -1 where Linux does not expose one. {@code jitNanos}, {@code gcThreadNanos}: the
   * part of {@code cpuNanos} the JIT compiler's and the collector's threads used.
   */
  public record Totals(long cpuNanos, long residentBytes, long diskWriteBytes, long diskReadBytes,
      double gcPauseTotalMillis, double gcPauseMaxMillis, long jitNanos, long gcThreadNanos) {}
}
