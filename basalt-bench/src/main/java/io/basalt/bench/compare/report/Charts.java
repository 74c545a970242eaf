package io.basalt.bench.compare.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * PNG charts with XChart, every target side by side per workload: throughput (ops/s) and latency (p50 and p99),
 * both on log scales, one pair for the PE workloads and one for YCSB.
 */
public final class Charts {
  private Charts() {}

  /** Writes {group}-throughput.png and {group}-latency.png for each group that has rows; returns the files. */
  public static List<Path> write(Path dir, List<Report.Row> rows, List<String> targets) throws IOException {
    List<Path> files = new ArrayList<>();
    for (String group : List.of("pe", "ycsb")) {
      List<Report.Row> g = rows.stream().filter(r -> r.group().equals(group)).toList();
      if (g.isEmpty()) {
        continue;
      }
      List<String> names = g.stream().map(Report.Row::id).toList();
      String title = group.equals("pe") ? "PerformanceEvaluation" : "YCSB";
      // Rates span four orders of magnitude (a synchronous write to a scanned row): log scale.
      CategoryChart tput = chart(title + ": throughput", "ops/s (log scale)", names.size());
      tput.getStyler().setYAxisLogarithmic(true);
      double lowest = Double.MAX_VALUE;
      for (String t : targets) {
        List<Double> rates = g.stream().map(r -> positive(r.of(t).opsPerSecond())).toList();
        tput.addSeries(t, names, rates);
        lowest = Math.min(lowest, rates.stream().mapToDouble(Double::doubleValue).min().orElse(1));
      }
      tput.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest))));
      files.add(save(tput, dir.resolve(group + "-throughput")));
      CategoryChart latency = chart(title + ": latency (p50, p99)", "ms (log scale)", names.size());
      latency.getStyler().setYAxisLogarithmic(true);
      double floor = Double.MAX_VALUE;
      for (String t : targets) {
        List<Double> p50 = g.stream().map(r -> positive(r.of(t).p50Micros() / 1000)).toList();
        List<Double> p99 = g.stream().map(r -> positive(r.of(t).p99Micros() / 1000)).toList();
        latency.addSeries(t + " p50", names, p50);
        latency.addSeries(t + " p99", names, p99);
        floor = Math.min(floor, p50.stream().mapToDouble(Double::doubleValue).min().orElse(1));
      }
      // Bars grow from the axis minimum, which must be above zero on a log axis.
      latency.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(floor))));
      files.add(save(latency, dir.resolve(group + "-latency")));
    }
    return files;
  }

  private static CategoryChart chart(String title, String yTitle, int categories) {
    CategoryChart c = new CategoryChartBuilder().width(Math.max(900, 70 * categories)).height(600).title(title)
        .yAxisTitle(yTitle).build();
    c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    c.getStyler().setXAxisLabelRotation(60);
    c.getStyler().setAvailableSpaceFill(0.8);
    c.getStyler().setOverlapped(false);
    return c;
  }

  /** Log axes cannot show 0 or NaN; a missing figure is drawn as the axis floor. */
  private static double positive(double v) {
    return Double.isNaN(v) || v <= 0 ? 0.001 : v;
  }

  private static Path save(CategoryChart chart, Path base) throws IOException {
    BitmapEncoder.saveBitmap(chart, base.toString(), BitmapEncoder.BitmapFormat.PNG);
    return Path.of(base + ".png");
  }
}
