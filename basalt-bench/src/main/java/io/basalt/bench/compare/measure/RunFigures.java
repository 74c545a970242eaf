package io.basalt.bench.compare.measure;

import io.basalt.bench.report.MachineCpu;
import org.HdrHistogram.Histogram;

/**
 * What one measured run of one workload against one target produced. Server-side counters are -1 when the bench
 * did not start the server (--connect).
 *
 * @param latency per-operation latency in nanoseconds
 * @param cpuNanos server CPU time during the run
 * @param residentBytes server resident memory at the end of the run
 * @param diskWriteBytes bytes the server wrote to disk during the run
 * @param diskReadBytes bytes the server read from disk during the run (not from the page cache)
 * @param jitNanos the part of {@code cpuNanos} the server's JIT compiler threads used
 * @param gcThreadNanos the part of {@code cpuNanos} the server's garbage collector threads used
 * @param clientCpuNanos CPU time of the bench's own JVM (the HBase client and the workload's threads) during the run
 * @param machine all cores of the machine over the run: how much of them was busy, whoever used it
 */
public record RunFigures(long ops, long errors, long elapsedNanos, Histogram latency, long cpuNanos,
    long residentBytes, long diskWriteBytes, long diskReadBytes, double gcPauseTotalMillis, double gcPauseMaxMillis,
    long jitNanos, long gcThreadNanos, long clientCpuNanos, MachineCpu machine) {
}
