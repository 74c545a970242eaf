package io.basalt.bench.compare;

import io.basalt.bench.compare.workload.PeTable;
import io.basalt.bench.compare.workload.PeWorkload;
import io.basalt.bench.compare.workload.PeWorkload.Kind;
import io.basalt.bench.compare.workload.SustainedWrite;
import io.basalt.bench.compare.workload.Workload;
import io.basalt.bench.compare.ycsb.YcsbMix;
import io.basalt.bench.compare.ycsb.YcsbTable;
import io.basalt.bench.compare.ycsb.YcsbWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The workloads of a comparison, in the order they run (writes first, then the loaded reads, then YCSB). */
public final class WorkloadSet {
  private WorkloadSet() {}

  public static List<Workload> of(Plan plan, String filter) {
    PeTable write = new PeTable("bench_pe_write", plan.writeKeyspace(), 0, false);
    PeTable cached = new PeTable("bench_pe_cached", plan.cachedRows(), plan.cachedRows(), true);
    PeTable uncached = new PeTable("bench_pe_4x_cache", plan.uncachedRows(), plan.uncachedRows(), false);
    YcsbTable ycsb = new YcsbTable("usertable", plan.ycsbRecords());
    int[] threadCounts = plan.threads() > 1 ? new int[] {1, plan.threads()} : new int[] {1};
    List<Workload> all = new ArrayList<>();
    for (Kind kind : new Kind[] {Kind.SEQUENTIAL_WRITE, Kind.RANDOM_WRITE}) {
      for (boolean buffered : new boolean[] {false, true}) {
        for (int threads : threadCounts) {
          all.add(new PeWorkload(kind, "", write, threads, buffered));
        }
      }
    }
    for (int threads : threadCounts) {
      all.add(new PeWorkload(Kind.RANDOM_READ, "data in cache", cached, threads, false));
    }
    for (int threads : threadCounts) {
      all.add(new PeWorkload(Kind.RANDOM_READ, "data 4x cache", uncached, threads, false));
    }
    for (int threads : threadCounts) {
      all.add(new PeWorkload(Kind.SCAN, "", cached, threads, false));
    }
    for (int threads : threadCounts) {
      all.add(new PeWorkload(Kind.SCAN_RANGE_100, "", cached, threads, false));
    }
    for (String distribution : new String[] {"zipfian", "uniform"}) {
      for (YcsbMix mix : YcsbMix.values()) {
        all.add(new YcsbWorkload(mix, distribution, ycsb, plan.threads()));
      }
    }
    if (filter == null || filter.isBlank()) {
      return all;
    }
    // Minutes per target: only when asked for by name (--workloads sustained or sustainedWrite).
    all.add(new SustainedWrite(plan.sustainedRows(), plan.threads(), plan.sustainedTime()));
    List<String> wanted = List.of(filter.toLowerCase(Locale.ROOT).split(","));
    return all.stream().filter(w -> wanted.stream().anyMatch(f -> matches(w, f.trim()))).toList();
  }

  /** "pe", "ycsb", "sustained", or the start of a workload name ("randomRead", "ycsb-a"). */
  private static boolean matches(Workload w, String f) {
    return w.group().equals(f) || w.name().toLowerCase(Locale.ROOT).startsWith(f);
  }
}
