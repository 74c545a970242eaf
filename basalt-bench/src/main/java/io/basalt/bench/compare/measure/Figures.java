package io.basalt.bench.compare.measure;

import io.basalt.bench.report.MachineCpu;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The figures of one workload on one target, over all its alternating runs: operations and time summed, latency
 * histograms merged, server counters summed (resident memory: the largest seen, GC: the longest pause; the JIT's
 * and the collector threads' shares of the server's CPU, which on a short run can be a fifth of it), the client's
 * CPU and the machine's busy share over the runs. On a machine the client shares with the server, the busy share
 * tells a workload held by CPU (near 100%) from one held by waits (a server applying one batch at a time, a disk,
 * a lock).
 */
public record Figures(long ops, long errors, double seconds, double opsPerSecond, double p50Micros, double p95Micros,
    double p99Micros, double p999Micros, double cpuSecondsPer1000Ops, double residentMb, double diskBytesPerOp,
    double diskReadBytesPerOp, double gcPauseTotalMillis, double gcPauseMaxMillis, int runs,
    double jitPercent, double gcThreadPercent, double clientCpuSecondsPer1000Ops, double machineBusyPercent) {

  /** Absent server counters (-1) stay NaN, so the report prints "-" for them. */
  public static Figures of(List<RunFigures> runs) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("no runs");
    }
    long ops = 0;
    long errors = 0;
    long nanos = 0;
    long cpu = 0;
    long written = 0;
    long read = 0;
    long rss = 0;
    boolean server = true;
    double gcTotal = 0;
    double gcMax = 0;
    long jit = 0;
    long gcThreads = 0;
    boolean threads = true;
    long clientCpu = 0;
    boolean client = true;
    MachineCpu machine = new MachineCpu(0, 0);
    Histogram merged = new Histogram(3);
    for (RunFigures r : runs) {
      ops += r.ops();
      errors += r.errors();
      nanos += r.elapsedNanos();
      merged.add(r.latency());
      server &= r.cpuNanos() >= 0;
      cpu += r.cpuNanos();
      written += Math.max(0, r.diskWriteBytes());
      read += Math.max(0, r.diskReadBytes());
      rss = Math.max(rss, r.residentBytes());
      gcTotal += r.gcPauseTotalMillis();
      gcMax = Math.max(gcMax, r.gcPauseMaxMillis());
      threads &= r.jitNanos() >= 0 && r.gcThreadNanos() >= 0;
      jit += r.jitNanos();
      gcThreads += r.gcThreadNanos();
      client &= r.clientCpuNanos() >= 0;
      clientCpu += r.clientCpuNanos();
      machine = machine.plus(r.machine());
    }
    double seconds = nanos / 1e9;
    double nan = Double.NaN;
    return new Figures(ops, errors, seconds, ops / seconds,
        micros(merged, 50), micros(merged, 95), micros(merged, 99), micros(merged, 99.9),
        server && ops > 0 ? cpu / 1e9 / ops * 1000 : nan,
        server ? rss / (double) (1 << 20) : nan,
        server && ops > 0 ? written / (double) ops : nan,
        server && ops > 0 ? read / (double) ops : nan,
        server ? gcTotal : nan, server ? gcMax : nan, runs.size(),
        server && threads && cpu > 0 ? 100.0 * jit / cpu : nan,
        server && threads && cpu > 0 ? 100.0 * gcThreads / cpu : nan,
        client && ops > 0 ? clientCpu / 1e9 / ops * 1000 : nan, machine.busyPercent());
  }

  private static double micros(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
  }
}
