package io.basalt.bench.compare.report;

import io.basalt.bench.compare.measure.Figures;
import io.basalt.bench.report.MarkdownTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The results as Markdown: a PE table and a YCSB table (one row per workload, both targets and the ratio
 * Basalt/HBase of throughput and p99), then every figure per target and every figure's ratio.
 */
public final class Report {
  public static final String BASALT = "basalt";
  public static final String HBASE = "hbase";

  private Report() {}

  /** A report row: the workload's id, its group and its figures per target. */
  public record Row(String id, String group, Map<String, Figures> byTarget) {
    Figures of(String target) {
      return byTarget.get(target);
    }

    boolean compared() {
      return byTarget.containsKey(BASALT) && byTarget.containsKey(HBASE);
    }
  }

  /** The Markdown body: header lines, then the tables. */
  public static String markdown(List<String> header, List<Row> rows, List<String> targets) {
    StringBuilder md = new StringBuilder();
    for (String line : header) {
      md.append(line).append('\n');
    }
    md.append("\n## PerformanceEvaluation workloads\n\n").append(summary(rows, "pe", targets));
    md.append("\n## YCSB core workloads\n\n").append(summary(rows, "ycsb", targets));
    md.append("\n## Every figure, per target\n\n").append(details(rows, targets));
    if (targets.contains(BASALT) && targets.contains(HBASE)) {
      md.append("\n## Ratio Basalt / HBase of every figure\n\n")
          .append("Above 1 is better for ops/s, below 1 is better for the others.\n\n").append(ratios(rows));
    }
    return md.toString();
  }

  private static String summary(List<Row> rows, String group, List<String> targets) {
    List<String> header = new ArrayList<>(List.of("workload"));
    for (String t : targets) {
      header.add(">" + t + " ops/s");
    }
    boolean both = targets.size() == 2;
    if (both) {
      header.add(">ratio");
    }
    for (String t : targets) {
      header.add(">" + t + " p99 ms");
    }
    if (both) {
      header.add(">p99 ratio");
    }
    MarkdownTable table = new MarkdownTable(header.toArray(String[]::new));
    for (Row r : rows) {
      if (!r.group().equals(group)) {
        continue;
      }
      List<String> cells = new ArrayList<>(List.of(r.id()));
      for (String t : targets) {
        cells.add(rate(r.of(t).opsPerSecond()));
      }
      if (both) {
        cells.add(ratio(r, Figures::opsPerSecond));
      }
      for (String t : targets) {
        cells.add(number(r.of(t).p99Micros() / 1000));
      }
      if (both) {
        cells.add(ratio(r, Figures::p99Micros));
      }
      table.row(cells.toArray(String[]::new));
    }
    return table.render();
  }

  private static String details(List<Row> rows, List<String> targets) {
    MarkdownTable table = new MarkdownTable("workload", "target", ">ops/s", ">p50 ms", ">p95 ms", ">p99 ms",
        ">p99.9 ms", ">CPU s/1000 ops", ">memory MB", ">disk B/op", ">GC pause total ms", ">GC pause max ms",
        ">errors");
    for (Row r : rows) {
      for (String t : targets) {
        Figures f = r.of(t);
        table.row(r.id(), t, rate(f.opsPerSecond()), number(f.p50Micros() / 1000), number(f.p95Micros() / 1000),
            number(f.p99Micros() / 1000), number(f.p999Micros() / 1000), number(f.cpuSecondsPer1000Ops()),
            number(f.residentMb()), number(f.diskBytesPerOp()), number(f.gcPauseTotalMillis()),
            number(f.gcPauseMaxMillis()), Long.toString(f.errors()));
      }
    }
    return table.render();
  }

  private static String ratios(List<Row> rows) {
    MarkdownTable table = new MarkdownTable("workload", ">ops/s", ">p50", ">p95", ">p99", ">p99.9", ">CPU/op",
        ">memory", ">disk B/op", ">GC total", ">GC max");
    for (Row r : rows) {
      if (!r.compared()) {
        continue;
      }
      table.row(r.id(), ratio(r, Figures::opsPerSecond), ratio(r, Figures::p50Micros), ratio(r, Figures::p95Micros),
          ratio(r, Figures::p99Micros), ratio(r, Figures::p999Micros), ratio(r, Figures::cpuSecondsPer1000Ops),
          ratio(r, Figures::residentMb), ratio(r, Figures::diskBytesPerOp), ratio(r, Figures::gcPauseTotalMillis),
          ratio(r, Figures::gcPauseMaxMillis));
    }
    return table.render();
  }

  /** Basalt's figure over HBase's, or "-" when either is missing or HBase's is zero. */
  public static double ratioValue(Row r, ToDoubleFunction<Figures> figure) {
    if (!r.compared()) {
      return Double.NaN;
    }
    double b = figure.applyAsDouble(r.of(BASALT));
    double h = figure.applyAsDouble(r.of(HBASE));
    return h == 0 || Double.isNaN(b) || Double.isNaN(h) ? Double.NaN : b / h;
  }

  private static String ratio(Row r, ToDoubleFunction<Figures> figure) {
    double v = ratioValue(r, figure);
    if (Double.isNaN(v)) {
      return "-";
    }
    return v > 0 && v < 0.01 ? "<0.01x" : String.format(Locale.ROOT, "%.2fx", v);
  }

  static String rate(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v);
  }

  static String number(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    if (v >= 100) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    return String.format(Locale.ROOT, v >= 10 ? "%.1f" : "%.3f", v);
  }
}
