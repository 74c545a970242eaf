package io.basalt.bench.compare.report;

import io.basalt.bench.compare.workload.SustainedWrite;
import io.basalt.bench.report.MarkdownTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The sustained write workload over time: puts/s per 10 s interval of each run and target, as a Markdown table
 * (mean, slowest, median and fastest interval), a CSV ({@code sustained.csv}) and a line chart
 * ({@code sustained-throughput.png}), where flush and compaction stalls show as dips.
 */
public final class SustainedReport {
  private SustainedReport() {}

  /** Workload id, then target, then each run's puts per interval; returns the Markdown section ("" if none). */
  public static String write(Path dir, Map<String, Map<String, List<long[]>>> timelines) throws IOException {
    if (timelines.isEmpty()) {
      return "";
    }
    double interval = SustainedWrite.INTERVAL.toMillis() / 1000.0;
    StringBuilder md = new StringBuilder("\n## Sustained write, puts/s per " + (int) interval + " s\n\n");
    StringBuilder csv = new StringBuilder("workload,target,run,interval_start_s,puts_per_s\n");
    for (Map.Entry<String, Map<String, List<long[]>>> w : timelines.entrySet()) {
      MarkdownTable t = new MarkdownTable("target", ">run", ">mean puts/s", ">slowest interval", ">median",
          ">fastest interval", ">intervals");
      XYChart chart = new XYChartBuilder().width(1100).height(500).title(w.getKey() + ": puts/s per "
          + (int) interval + " s").xAxisTitle("minutes into the run").yAxisTitle("puts/s").build();
      chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
      chart.getStyler().setMarkerSize(3);
      Map<String, Double> means = new java.util.LinkedHashMap<>();
      for (Map.Entry<String, List<long[]>> target : w.getValue().entrySet()) {
        double sum = 0;
        int n = 0;
        for (int run = 0; run < target.getValue().size(); run++) {
          double[] rates = fullIntervals(target.getValue().get(run), interval);
          if (rates.length == 0) {
            continue;
          }
          double[] minutes = new double[rates.length];
          for (int i = 0; i < rates.length; i++) {
            minutes[i] = i * interval / 60;
            csv.append(String.format(Locale.ROOT, "\"%s\",%s,%d,%.0f,%.1f%n", w.getKey(), target.getKey(), run + 1,
                i * interval, rates[i]));
          }
          chart.addSeries(target.getKey() + " run " + (run + 1), minutes, rates);
          double[] sorted = rates.clone();
          Arrays.sort(sorted);
          double mean = Arrays.stream(rates).average().orElse(Double.NaN);
          t.row(target.getKey(), Integer.toString(run + 1), fmt(mean), fmt(sorted[0]), fmt(sorted[sorted.length / 2]),
              fmt(sorted[sorted.length - 1]), Integer.toString(rates.length));
          sum += mean * rates.length;
          n += rates.length;
        }
        means.put(target.getKey(), n == 0 ? Double.NaN : sum / n);
      }
      md.append("### ").append(w.getKey()).append("\n\n").append(t.render()).append('\n');
      if (means.containsKey(Report.BASALT) && means.containsKey(Report.HBASE)) {
        md.append(String.format(Locale.ROOT, "Mean puts/s Basalt / HBase: %.2fx.%n%n",
            means.get(Report.BASALT) / means.get(Report.HBASE)));
      }
      if (!chart.getSeriesMap().isEmpty()) {
        BitmapEncoder.saveBitmap(chart, dir.resolve("sustained-throughput").toString(), BitmapEncoder.BitmapFormat.PNG);
        md.append("![sustained write](sustained-throughput.png)\n");
      }
    }
    Files.writeString(dir.resolve("sustained.csv"), csv, StandardCharsets.UTF_8);
    return md.toString();
  }

  /**
   * Puts/s of each whole interval of the run time: the last two slots (the partial interval at the end, late puts)
   * are left out, and so are empty intervals after the last put (a run that ended early); an empty interval
   * between puts is a stall and stays.
   */
  static double[] fullIntervals(long[] counts, double intervalSeconds) {
    int whole = Math.max(0, counts.length - 2);
    while (whole > 0 && counts[whole - 1] == 0 && !hasLater(counts, whole - 1)) {
      whole--;
    }
    double[] out = new double[whole];
    for (int i = 0; i < whole; i++) {
      out[i] = counts[i] / intervalSeconds;
    }
    return out;
  }

  private static boolean hasLater(long[] counts, int i) {
    for (int j = i + 1; j < counts.length; j++) {
      if (counts[j] > 0) {
        return true;
      }
    }
    return false;
  }

  private static String fmt(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v);
  }
}
