package io.basalt.bench.compare.profile;

import io.basalt.bench.compare.profile.JfrProfiles.Kind;
import io.basalt.bench.compare.profile.JfrProfiles.WorkloadProfile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a run's server profiles: per workload and target a flame graph (SVG) and the collapsed stacks of each
 * profile kind, and {@code profiles.md}, which gives per workload the figures per operation (allocated bytes,
 * lock wait), the CPU share per thread group and the frames that carry the most weight, Basalt's and JE's
 * first, with their inclusive share as the "Where the time goes" section of docs/benchmarks.md quotes them.
 */
public final class ProfileReport {
  static final int TOP = 15;

  private ProfileReport() {}

  public static void write(Path dir, Collection<WorkloadProfile> profiles, List<String> header) throws IOException {
    Files.createDirectories(dir);
    StringBuilder md = new StringBuilder("# Server profiles per workload (JFR)\n\n");
    header.forEach(h -> md.append("- ").append(h).append('\n'));
    md.append("- CPU: execution samples (one per 10 ms per running Java thread); allocation: JFR's allocation samples"
        + " weighted by the bytes each stands for (an estimate); lock: monitor enters and parks on a lock of 1 ms or"
        + " more (waits for work left out). Shares are inclusive (the frame anywhere on the stack) of the workload's"
        + " total. Files: `NAME-cpu.svg` (flame graph) and `NAME-cpu.collapsed` (collapsed stacks), the same for"
        + " `alloc` and `lock`.\n");
    for (WorkloadProfile p : profiles) {
      String name = fileName(p);
      for (Kind k : Kind.values()) {
        StackProfile s = p.profile(k);
        Files.writeString(dir.resolve(name + "-" + k.file + ".collapsed"), s.collapsed(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(name + "-" + k.file + ".svg"),
            FlameGraph.svg(s, p.workload() + " on " + p.target() + ": " + k.file, k.unit), StandardCharsets.UTF_8);
      }
      md.append('\n').append(section(p, name));
    }
    Files.writeString(dir.resolve("profiles.md"), md, StandardCharsets.UTF_8);
  }

  static String fileName(WorkloadProfile p) {
    return (p.target() + "-" + p.workload()).replaceAll("[^A-Za-z0-9_.-]+", "-");
  }

  static String section(WorkloadProfile p, String name) {
    StackProfile cpu = p.profile(Kind.CPU);
    StackProfile alloc = p.profile(Kind.ALLOC);
    StackProfile lock = p.profile(Kind.LOCK);
    long ops = Math.max(1, p.ops());
    StringBuilder s = new StringBuilder();
    s.append("## ").append(p.workload()).append(" on ").append(p.target()).append("\n\n");
    s.append(String.format(Locale.ROOT, "%,d operations in %.1f s; %,d CPU samples (%.1f per 1000 operations); "
            + "%,.0f bytes allocated per operation (%,.0f MB/s); lock waits %,.1f us per operation (%,.0f ms in all)."
            + " Flame graphs: [cpu](%s-cpu.svg), [alloc](%s-alloc.svg), [lock](%s-lock.svg)\n\n",
        p.ops(), p.seconds(), cpu.total(), 1000.0 * cpu.total() / ops, (double) alloc.total() / ops,
        alloc.total() / Math.max(1e-9, p.seconds()) / (1 << 20), lock.total() / 1e3 / ops, lock.total() / 1e6,
        name, name, name));
    if (!cpu.isEmpty()) {
      s.append("CPU by thread: ").append(byThread(cpu)).append("\n\n");
      s.append(table("CPU, Basalt and JE frames", cpu, true));
      s.append(table("CPU, leaf frames", cpu, false));
    }
    if (!alloc.isEmpty()) {
      s.append(table("Allocation, Basalt and JE frames", alloc, true));
      s.append(table("Allocation, allocated types and leaf frames", alloc, false));
    }
    if (!lock.isEmpty()) {
      s.append(table("Lock waits, Basalt and JE frames", lock, true));
      s.append(table("Lock waits, locks", lock, false));
    }
    return s.toString();
  }

  /** Each thread group's share of the samples, largest first. */
  static String byThread(StackProfile p) {
    Map<String, Long> groups = new TreeMap<>();
    p.stacks().forEach((stack, w) -> groups.merge(stack.substring(0, stack.indexOf(';') < 0 ? stack.length()
        : stack.indexOf(';')), w, Long::sum));
    List<Map.Entry<String, Long>> sorted = new ArrayList<>(groups.entrySet());
    sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed());
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Long> e : sorted.subList(0, Math.min(8, sorted.size()))) {
      parts.add(String.format(Locale.ROOT, "%s %.1f%%", e.getKey().replace("|", "\\|"), 100.0 * e.getValue() / p.total()));
    }
    return String.join(", ", parts);
  }

  /** Inclusive: frames of Basalt and JE by inclusive share. Leaf: any frame (or allocated type, lock) by self share. */
  static String table(String title, StackProfile p, boolean inclusive) {
    List<StackProfile.FrameWeight> rows = new ArrayList<>();
    if (inclusive) {
      for (StackProfile.FrameWeight f : p.topInclusive(Integer.MAX_VALUE)) {
        if (f.frame().startsWith("io.basalt.") || f.frame().startsWith("com.sleepycat.")) {
          rows.add(f);
          if (rows.size() == TOP) {
            break;
          }
        }
      }
    } else {
      rows.addAll(p.topSelf(TOP));
    }
    StringBuilder s = new StringBuilder("| ").append(title).append(" | inclusive | self |\n| --- | ---: | ---: |\n");
    for (StackProfile.FrameWeight f : rows) {
      s.append(String.format(Locale.ROOT, "| `%s` | %.1f%% | %.1f%% |\n", f.frame().replace("|", "\\|"),
          100.0 * f.inclusive() / p.total(), 100.0 * f.self() / p.total()));
    }
    return s.append('\n').toString();
  }
}
