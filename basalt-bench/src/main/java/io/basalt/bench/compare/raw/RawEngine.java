package io.basalt.bench.compare.raw;

import io.basalt.bench.compare.Plan;
import io.basalt.bench.compare.launch.ChildJvm;
import io.basalt.bench.compare.measure.Figures;
import io.basalt.bench.report.MarkdownTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/basalt bench --raw-engine}: runs {@link RawEngineMain} in a child JVM with the server's heap, collector
 * and JE cache after the comparison, and reports each PE workload's end-to-end rate against the engine's own.
 */
public final class RawEngine {
  /** One workload's raw run: operations, wall and process CPU nanoseconds over all repetitions. */
  public record Result(long ops, long nanos, long cpuNanos) {
    double opsPerSecond() {
      return nanos == 0 ? Double.NaN : ops * 1e9 / nanos;
    }

    double cpuMicrosPerOp() {
      return ops == 0 ? Double.NaN : cpuNanos / 1e3 / ops;
    }
  }

  private RawEngine() {}

  /** Runs the child and returns its results by workload id; {@code dir} gets its data (deleted) and log. */
  public static Map<String, Result> run(Plan plan, String filter, Path dir) throws IOException, InterruptedException {
    Path data = Files.createDirectories(dir.resolve("data"));
    Path results = dir.resolve("raw-results.tsv");
    Files.deleteIfExists(results);
    List<String> jvm = List.of("-Xms" + plan.heapMb() + "m", "-Xmx" + plan.heapMb() + "m", "-XX:+UseZGC",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    List<String> args = List.of(data.toString(), results.toString(), Integer.toString(plan.cacheMb()),
        Double.toString(plan.runTime().toMillis() / 1000.0), Integer.toString(plan.repetitions()),
        Integer.toString(plan.threads()), Long.toString(plan.writeKeyspace()), filter == null || filter.isBlank() ? "-" : filter);
    ChildJvm child = ChildJvm.start("raw-je", jvm, System.getProperty("java.class.path"), RawEngineMain.class.getName(),
        args, dir.resolve("logs"));
    try {
      // Loads and runs: generous, but bounded.
      long limitNanos = TimeUnit.MINUTES.toNanos(20) + plan.runTime().toNanos() * plan.repetitions() * 40;
      long deadline = System.nanoTime() + limitNanos;
      while (child.isAlive()) {
        if (System.nanoTime() > deadline) {
          throw new IOException("the raw engine run did not finish in " + TimeUnit.NANOSECONDS.toMinutes(limitNanos)
              + " min; log: " + child.log());
        }
        Thread.sleep(200);
      }
      if (child.exitValue() != 0) {
        throw new IOException("the raw engine run failed (exit " + child.exitValue() + "):\n" + child.tail(30));
      }
    } finally {
      child.close();
      deleteRecursively(data);
    }
    Map<String, Result> out = new LinkedHashMap<>();
    if (Files.exists(results)) {
      for (String line : Files.readAllLines(results, StandardCharsets.UTF_8)) {
        String[] f = line.split("\t");
        out.put(f[0], new Result(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])));
      }
    }
    return out;
  }

  /** The Markdown section: Basalt end to end against the raw engine, beside Basalt against HBase. */
  public static String markdown(Map<String, Map<String, Figures>> figures, Map<String, Result> raw, String basalt,
      String hbase) {
    StringBuilder s = new StringBuilder("## Basalt end to end against its raw engine (PE workloads)\n\n");
    s.append("The raw engine: the same operations in process against basalt-storage (JE), same heap, collector,"
        + " JE cache, tables, threads and run time, no RPC or client (`RawEngineMain`). Basalt/raw shows what the"
        + " server and the client around the engine cost; the engine's CPU includes the load generator.\n\n");
    MarkdownTable t = new MarkdownTable("workload", ">basalt ops/s", ">raw engine ops/s", ">basalt/raw",
        ">hbase ops/s", ">basalt/hbase", ">basalt server CPU us/op", ">raw engine CPU us/op");
    List<String> ids = new ArrayList<>(raw.keySet());
    for (String id : ids) {
      Result r = raw.get(id);
      Map<String, Figures> byTarget = figures.getOrDefault(id, Map.of());
      Figures b = byTarget.get(basalt);
      Figures h = byTarget.get(hbase);
      t.row(id, rate(b == null ? Double.NaN : b.opsPerSecond()), rate(r.opsPerSecond()),
          ratio(b == null ? Double.NaN : b.opsPerSecond(), r.opsPerSecond()), rate(h == null ? Double.NaN : h.opsPerSecond()),
          ratio(b == null ? Double.NaN : b.opsPerSecond(), h == null ? Double.NaN : h.opsPerSecond()),
          micros(b == null ? Double.NaN : b.cpuSecondsPer1000Ops() * 1000), micros(r.cpuMicrosPerOp()));
    }
    return s.append(t.render()).append('\n').toString();
  }

  private static String rate(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String ratio(double a, double b) {
    return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "-" : String.format(Locale.ROOT, "%.2fx", a / b);
  }

  private static String micros(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
