package io.basalt.bench.compare;

import io.basalt.bench.compare.measure.Figures;
import io.basalt.bench.compare.measure.ProcSnapshot;
import io.basalt.bench.compare.measure.QuietWait;
import io.basalt.bench.compare.measure.RunFigures;
import io.basalt.bench.compare.measure.ServerWindow;
import io.basalt.bench.compare.report.ProgressBar;
import io.basalt.bench.compare.launch.ChildJvm;
import io.basalt.bench.compare.launch.Target;
import io.basalt.bench.compare.profile.RunWindow;
import io.basalt.bench.compare.workload.DataSet;
import io.basalt.bench.compare.workload.Driver;
import io.basalt.bench.compare.workload.PeWorkload;
import io.basalt.bench.compare.workload.Workload;
import io.basalt.bench.report.MachineCpu;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.client.Connection;

/**
 * Runs every workload against every target, alternating (A B A B ..., or A B C A B C ... with three targets) so
 * that drift of a shared machine hits all alike, and measures each run on the client (operations, latency) and,
 * for servers the bench started, on the server (/proc counters and GC logs, summed over a cluster's processes). A
 * workload's data set is loaded on each target just before its first run, and a workload that {@link
 * Workload#warmsUp} runs once unmeasured on each target before its measured runs. Each measured run starts once
 * the other targets' servers have gone idle ({@link QuietWait}).
 */
public final class Comparison {
  private static final Duration WARM_UP_MAX = Duration.ofSeconds(10);

  private final Plan plan;
  private final List<Target> targets;
  private final ProgressBar progress;
  private final Map<Path, Long> gcOffsets = new HashMap<>();
  private final List<RunWindow> windows = new ArrayList<>();
  private final Map<String, Map<String, List<long[]>>> timelines = new LinkedHashMap<>();
  private final List<Settled> settled = new ArrayList<>();

  public Comparison(Plan plan, List<Target> targets, ProgressBar progress) {
    this.plan = plan;
    this.targets = targets;
    this.progress = progress;
  }

  /**
   * Workload id, then target name, then its figures over all repetitions; how long each load took; and when each
   * measured run ran (to cut server profiles by workload).
   */
  public record Outcome(Map<String, Map<String, Figures>> figures, Map<String, Map<String, Duration>> loads,
      List<RunWindow> windows, Map<String, Map<String, List<long[]>>> timelines, List<Settled> settled) {}

  /** How long a measured run of {@code workload} on {@code target} waited for the other targets to go idle. */
  public record Settled(String workload, String target, QuietWait.Result idle) {}

  public Outcome run(List<Workload> workloads) throws IOException, InterruptedException {
    Map<String, Connection> connections = new LinkedHashMap<>();
    try {
      for (Target t : targets) {
        connections.put(t.name(), t.connect());
      }
      Map<String, Map<String, Figures>> figures = new LinkedHashMap<>();
      Map<String, Map<String, Duration>> loads = new LinkedHashMap<>();
      Set<String> loaded = new HashSet<>();
      for (Workload w : workloads) {
        DataSet data = w.dataSet();
        if (loaded.add(data.tableName())) {
          Map<String, Duration> times = new LinkedHashMap<>();
          for (Target t : targets) {
            progress.status("loading " + data.tableName() + " (" + data.rows() + " rows) into " + t.name());
            long t0 = System.nanoTime();
            data.load(connections.get(t.name()), plan.threads());
            times.put(t.name(), Duration.ofNanos(System.nanoTime() - t0));
          }
          loads.put(data.tableName(), times);
        }
        if (w.warmsUp()) {
          for (Target t : targets) {
            progress.status("warming up " + id(w) + " on " + t.name());
            Driver.drive(w.prepare(connections.get(t.name()), opsLimit(w)), w.threads(), warmUpTime());
          }
        }
        Map<String, List<RunFigures>> runs = new LinkedHashMap<>();
        for (int rep = 0; rep < plan.repetitions(); rep++) {
          for (Target t : targets) {
            settle(w, t);
            progress.runStarted(id(w) + " on " + t.name(), w.runTime(plan.runTime()));
            runs.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(measure(w, t, connections.get(t.name())));
            progress.runDone();
          }
        }
        Map<String, Figures> byTarget = new LinkedHashMap<>();
        runs.forEach((target, list) -> byTarget.put(target, Figures.of(list)));
        figures.put(id(w), byTarget);
      }
      return new Outcome(figures, loads, List.copyOf(windows), timelines, List.copyOf(settled));
    } finally {
      for (Connection c : connections.values()) {
        c.close();
      }
    }
  }

  /** Unique per report row: name, client threads and write buffering. */
  public static String id(Workload w) {
    return w.name() + " " + w.threads() + "t" + (w.clientBuffer().equals("-") ? "" : " " + w.clientBuffer());
  }

  private RunFigures measure(Workload w, Target t, Connection connection) throws IOException, InterruptedException {
    List<ChildJvm> servers = t.processes();
    ServerWindow window = servers.isEmpty() ? null : new ServerWindow(servers, gcOffsets);
    Workload.Run prepared = w.prepare(connection, opsLimit(w));
    Instant start = Instant.now();
    long clientStart = ProcSnapshot.of(ProcessHandle.current().pid()).cpuNanos();
    MachineCpu machineStart = MachineCpu.now();
    Driver.Outcome o = Driver.drive(prepared, w.threads(), w.runTime(plan.runTime()));
    MachineCpu machine = MachineCpu.now().since(machineStart);
    long clientEnd = ProcSnapshot.of(ProcessHandle.current().pid()).cpuNanos();
    long clientCpu = clientStart < 0 || clientEnd < 0 ? -1 : clientEnd - clientStart;
    windows.add(new RunWindow(id(w), t.name(), start, Instant.now(), o.ops()));
    long[] timeline = prepared.timeline();
    if (timeline != null) {
      timelines.computeIfAbsent(id(w), k -> new LinkedHashMap<>()).computeIfAbsent(t.name(), k -> new ArrayList<>())
          .add(timeline);
    }
    if (window == null) {
      return new RunFigures(o.ops(), o.errors(), o.elapsedNanos(), o.latency(), -1, -1, -1, -1, 0, 0, -1, -1,
          clientCpu, machine);
    }
    ServerWindow.Totals s = window.close(id(w) + " on " + t.name());
    return new RunFigures(o.ops(), o.errors(), o.elapsedNanos(), o.latency(), s.cpuNanos(), s.residentBytes(),
        s.diskWriteBytes(), s.diskReadBytes(), s.gcPauseTotalMillis(), s.gcPauseMaxMillis(), s.jitNanos(),
        s.gcThreadNanos(), clientCpu, machine);
  }

  /** Waits until the servers of every target but {@code t} have gone idle (see {@link QuietWait}). */
  private void settle(Workload w, Target t) throws InterruptedException {
    List<ChildJvm> others = new ArrayList<>();
    for (Target other : targets) {
      if (other != t) {
        others.addAll(other.processes());
      }
    }
    progress.status("waiting for the other targets' servers to go idle before " + id(w) + " on " + t.name());
    settled.add(new Settled(id(w), t.name(), QuietWait.forOthers(others)));
  }

  /** A warm-up run's budget: the run time, at most 10 s. */
  private Duration warmUpTime() {
    Duration run = plan.runTime();
    return run.compareTo(WARM_UP_MAX) < 0 ? run : WARM_UP_MAX;
  }

  /** Writes stop at the write key space; reads and YCSB run for the time budget (YCSB sizes its key chooser by it). */
  private long opsLimit(Workload w) {
    if (w instanceof PeWorkload pe) {
      return switch (pe.kind()) {
        case SEQUENTIAL_WRITE, RANDOM_WRITE -> plan.writeKeyspace();
        default -> Long.MAX_VALUE / 4;
      };
    }
    return plan.ycsbRecords() * 10;
  }
}
