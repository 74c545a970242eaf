package io.basalt.bench.compare.report;

import io.basalt.bench.compare.measure.Figures;
import io.basalt.bench.report.MarkdownTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The results as Markdown: a PE table and a YCSB table (one row per workload, every target and the ratios of
 * throughput and p99: Basalt/HBase, and with a replicated Basalt cluster RF=N/RF=1 and RF=N/HBase as well), then
 * every figure per target and every figure's ratios.
 */
public final class Report {
  public static final String BASALT = "basalt";
  public static final String HBASE = "hbase";
  /** Prefix of a replicated Basalt cluster's target name: "basalt-rf3". */
  public static final String BASALT_RF = "basalt-rf";
  /** Suffix of a target with TLS and ACLs on: "basalt-secure", "hbase-secure" (--security). */
  public static final String SECURE = "-secure";

  private Report() {}

  /** A report row: the workload's id, its group and its figures per target. */
  public record Row(String id, String group, Map<String, Figures> byTarget) {
    Figures of(String target) {
      return byTarget.get(target);
    }

    boolean has(Ratio r) {
      return byTarget.containsKey(r.numerator()) && byTarget.containsKey(r.denominator());
    }
  }

  /** One comparison the report makes: a figure of {@code numerator} over the same figure of {@code denominator}. */
  public record Ratio(String numerator, String denominator) {
    /** As the CSV names it: "basalt/hbase", "basalt-rf3/basalt". */
    public String key() {
      return numerator + "/" + denominator;
    }
  }

  /**
   * The ratios the targets allow, in report order: a replicated cluster against Basalt RF=1 and against HBase, then
   * Basalt against HBase.
   */
  public static List<Ratio> ratios(List<String> targets) {
    List<Ratio> ratios = new ArrayList<>();
    for (String t : targets) {
      if (t.startsWith(BASALT_RF)) {
        for (String other : List.of(BASALT, HBASE)) {
          if (targets.contains(other)) {
            ratios.add(new Ratio(t, other));
          }
        }
      }
    }
    // security on against off, each system against itself, then secured Basalt against secured HBase
    for (String t : targets) {
      if (t.endsWith(SECURE) && targets.contains(t.substring(0, t.length() - SECURE.length()))) {
        ratios.add(new Ratio(t, t.substring(0, t.length() - SECURE.length())));
      }
    }
    if (targets.contains(BASALT + SECURE) && targets.contains(HBASE + SECURE)) {
      ratios.add(new Ratio(BASALT + SECURE, HBASE + SECURE));
    }
    if (targets.contains(BASALT) && targets.contains(HBASE)) {
      ratios.add(new Ratio(BASALT, HBASE));
    }
    return ratios;
  }

  /** With a replicated cluster among the targets, ratios are labelled "RF=3/RF=1"; without, the one is "ratio". */
  private static boolean replicated(List<String> targets) {
    return targets.stream().anyMatch(t -> t.startsWith(BASALT_RF));
  }

  /** With a replicated cluster or a secured target, ratio columns name their targets; else the one is "ratio". */
  private static boolean labelled(List<String> targets) {
    return replicated(targets) || targets.stream().anyMatch(t -> t.endsWith(SECURE));
  }

  /** Short label of a target in a ratio column: "RF=3", "RF=1", "HBase", "Basalt sec", "HBase sec". */
  private static String shortLabel(String target, boolean replicated) {
    if (target.startsWith(BASALT_RF)) {
      return "RF=" + target.substring(BASALT_RF.length());
    }
    if (target.endsWith(SECURE)) {
      return shortLabel(target.substring(0, target.length() - SECURE.length()), false) + " sec";
    }
    return target.equals(BASALT) ? (replicated ? "RF=1" : "Basalt") : target.equals(HBASE) ? "HBase" : target;
  }

  /**
   * Label of a target in a heading: "Basalt RF=3", "Basalt" (or "Basalt RF=1" beside a cluster), "HBase",
   * "Basalt with TLS and ACLs".
   */
  private static String longLabel(String target, boolean replicated) {
    if (target.startsWith(BASALT_RF) || (replicated && target.equals(BASALT))) {
      return "Basalt " + shortLabel(target, true);
    }
    if (target.endsWith(SECURE)) {
      return longLabel(target.substring(0, target.length() - SECURE.length()), false) + " with TLS and ACLs";
    }
    return target.equals(BASALT) ? "Basalt" : target.equals(HBASE) ? "HBase" : target;
  }

  /** The Markdown body: header lines, then the tables. */
  public static String markdown(List<String> header, List<Row> rows, List<String> targets) {
    StringBuilder md = new StringBuilder();
    for (String line : header) {
      md.append(line).append('\n');
    }
    md.append("\n## PerformanceEvaluation workloads\n\n").append(summary(rows, "pe", targets));
    md.append("\n## YCSB core workloads\n\n").append(summary(rows, "ycsb", targets));
    if (rows.stream().anyMatch(r -> r.group().equals("sustained"))) {
      md.append("\n## Sustained write\n\n").append(summary(rows, "sustained", targets));
    }
    md.append("\n## Every figure, per target\n\n").append(details(rows, targets));
    boolean replicated = replicated(targets);
    for (Ratio r : ratios(targets)) {
      md.append("\n## Ratio ").append(longLabel(r.numerator(), replicated)).append(" / ")
          .append(longLabel(r.denominator(), replicated)).append(" of every figure\n\n")
          .append("Above 1 is better for ops/s, below 1 is better for the others.\n\n").append(ratioTable(rows, r));
    }
    return md.toString();
  }

  private static String summary(List<Row> rows, String group, List<String> targets) {
    List<Ratio> ratios = ratios(targets);
    boolean labelled = labelled(targets);
    boolean replicated = replicated(targets);
    List<String> header = new ArrayList<>(List.of("workload"));
    for (String t : targets) {
      header.add(">" + t + " ops/s");
    }
    for (Ratio r : ratios) {
      header.add(">" + (labelled ? shortLabel(r.numerator(), replicated) + "/" + shortLabel(r.denominator(), replicated)
          : "ratio"));
    }
    for (String t : targets) {
      header.add(">" + t + " p99 ms");
    }
    for (Ratio r : ratios) {
      header.add(">" + (labelled ? "p99 " + shortLabel(r.numerator(), replicated) + "/"
          + shortLabel(r.denominator(), replicated) : "p99 ratio"));
    }
    MarkdownTable table = new MarkdownTable(header.toArray(String[]::new));
    for (Row row : rows) {
      if (!row.group().equals(group)) {
        continue;
      }
      List<String> cells = new ArrayList<>(List.of(row.id()));
      for (String t : targets) {
        cells.add(rate(row.of(t).opsPerSecond()));
      }
      for (Ratio r : ratios) {
        cells.add(ratio(row, r, Figures::opsPerSecond));
      }
      for (String t : targets) {
        cells.add(number(row.of(t).p99Micros() / 1000));
      }
      for (Ratio r : ratios) {
        cells.add(ratio(row, r, Figures::p99Micros));
      }
      table.row(cells.toArray(String[]::new));
    }
    return table.render();
  }

  private static String details(List<Row> rows, List<String> targets) {
    MarkdownTable table = new MarkdownTable("workload", "target", ">ops/s", ">p50 ms", ">p95 ms", ">p99 ms",
        ">p99.9 ms", ">CPU s/1000 ops", ">memory MB", ">disk B/op", ">disk read B/op", ">GC pause total ms",
        ">GC pause max ms", ">server CPU in JIT %", ">server CPU in GC threads %", ">client CPU s/1000 ops",
        ">machine busy %", ">errors");
    for (Row r : rows) {
      for (String t : targets) {
        Figures f = r.of(t);
        table.row(r.id(), t, rate(f.opsPerSecond()), number(f.p50Micros() / 1000), number(f.p95Micros() / 1000),
            number(f.p99Micros() / 1000), number(f.p999Micros() / 1000), number(f.cpuSecondsPer1000Ops()),
            number(f.residentMb()), number(f.diskBytesPerOp()), number(f.diskReadBytesPerOp()),
            number(f.gcPauseTotalMillis()),
            number(f.gcPauseMaxMillis()), number(f.jitPercent()), number(f.gcThreadPercent()),
            number(f.clientCpuSecondsPer1000Ops()), number(f.machineBusyPercent()),
            Long.toString(f.errors()));
      }
    }
    return table.render();
  }

  private static String ratioTable(List<Row> rows, Ratio ratio) {
    MarkdownTable table = new MarkdownTable("workload", ">ops/s", ">p50", ">p95", ">p99", ">p99.9", ">CPU/op",
        ">memory", ">disk B/op", ">disk read B/op", ">GC total", ">GC max", ">client CPU/op");
    for (Row r : rows) {
      if (!r.has(ratio)) {
        continue;
      }
      table.row(r.id(), ratio(r, ratio, Figures::opsPerSecond), ratio(r, ratio, Figures::p50Micros),
          ratio(r, ratio, Figures::p95Micros), ratio(r, ratio, Figures::p99Micros), ratio(r, ratio, Figures::p999Micros),
          ratio(r, ratio, Figures::cpuSecondsPer1000Ops), ratio(r, ratio, Figures::residentMb),
          ratio(r, ratio, Figures::diskBytesPerOp), ratio(r, ratio, Figures::diskReadBytesPerOp),
          ratio(r, ratio, Figures::gcPauseTotalMillis),
          ratio(r, ratio, Figures::gcPauseMaxMillis), ratio(r, ratio, Figures::clientCpuSecondsPer1000Ops));
    }
    return table.render();
  }

  /** The numerator's figure over the denominator's, or NaN when either is missing or the denominator's is zero. */
  public static double ratioValue(Row r, Ratio ratio, ToDoubleFunction<Figures> figure) {
    if (!r.has(ratio)) {
      return Double.NaN;
    }
    double n = figure.applyAsDouble(r.of(ratio.numerator()));
    double d = figure.applyAsDouble(r.of(ratio.denominator()));
    return d == 0 || Double.isNaN(n) || Double.isNaN(d) ? Double.NaN : n / d;
  }

  private static String ratio(Row r, Ratio ratio, ToDoubleFunction<Figures> figure) {
    double v = ratioValue(r, ratio, figure);
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
