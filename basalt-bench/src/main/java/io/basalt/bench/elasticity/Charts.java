package io.basalt.bench.elasticity;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The PNG charts of the three measurements (XChart, rendered headless). */
final class Charts {
  private Charts() {}

  static {
    System.setProperty("java.awt.headless", "true");
  }

  /** Fig. 8: one stacked bar per region size, one segment per split step. */
  static void split(Path file, List<SplitMeasurement.Row> rows) throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(900).height(560)
        .title("Split: time per step (master) and unavailability (probes)").xAxisTitle("region size")
        .yAxisTitle("milliseconds").build();
    chart.getStyler().setStacked(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    List<String> sizes = rows.stream().map(r -> sizeLabel(r.sizeMb())).toList();
    // the daughters open in parallel: the window holds the longer of the two opens
    chart.addSeries("close", sizes, rows.stream().map(r -> (Number) phase(r, "close")).toList());
    chart.addSeries("clone", sizes, rows.stream().map(r -> (Number) phase(r, "clone")).toList());
    chart.addSeries("open A || open B", sizes,
        rows.stream().map(r -> (Number) Math.max(phase(r, "openA"), phase(r, "openB"))).toList());
    chart.addSeries("publish", sizes, rows.stream().map(r -> (Number) phase(r, "publish")).toList());
    StringBuilder probes = new StringBuilder("probe refused->served (A/B): ");
    for (SplitMeasurement.Row r : rows) {
      probes.append(String.format("%s %.0f/%.0f ms  ", sizeLabel(r.sizeMb()), r.probeA().refusedToServedMillis(),
          r.probeB().refusedToServedMillis()));
    }
    chart.setTitle(chart.getTitle() + "\n");
    chart.setXAxisTitle("region size   |   " + probes.toString().trim());
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** Per move: the master's unavailable steps stacked, beside the probe's window (grouped, not stacked). */
  static void move(Path file, List<MoveMeasurement.Row> rows) throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(900).height(560)
        .title("Move under 95/5 load: unavailability per move").xAxisTitle("move (prefetch time and bytes in the table)")
        .yAxisTitle("milliseconds").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    List<String> names = rows.stream().map(r -> "#" + r.n()).toList();
    chart.addSeries("master: close..publish", names, rows.stream().map(r -> (Number) r.masterUnavailableMillis()).toList());
    chart.addSeries("probe: refused->served", names, rows.stream().map(r -> (Number) nanToZero(r.probe().refusedToServedMillis())).toList());
    chart.addSeries("probe: longest gap between served gets", names, rows.stream().map(r -> (Number) r.probe().maxGapMillis()).toList());
    chart.addSeries("load: worst p99 of the move's seconds", names, rows.stream().map(r -> (Number) r.loadWorstP99Millis()).toList());
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** Fig. 9: throughput (left axis) and p99 (right axis) per second, with the server start and moves marked. */
  static void growth(Path file, GrowthMeasurement.Result result) throws IOException {
    XYChart chart = new XYChartBuilder().width(1100).height(600)
        .title("Adding a third region server under a 95/5 zipfian load").xAxisTitle("seconds")
        .yAxisTitle("operations per second").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
    List<Double> x = new ArrayList<>();
    List<Double> ops = new ArrayList<>();
    List<Double> p99 = new ArrayList<>();
    for (YcsbLoad.Second s : result.seconds()) {
      x.add(s.atSeconds());
      ops.add((double) s.ops());
      p99.add(s.p99Millis());
    }
    if (x.isEmpty()) {
      x.add(0.0);
      ops.add(0.0);
      p99.add(0.0);
    }
    XYSeries throughput = chart.addSeries("throughput (ops/s)", x, ops);
    throughput.setMarker(SeriesMarkers.NONE);
    XYSeries latency = chart.addSeries("p99 latency (ms, right axis)", x, p99);
    latency.setMarker(SeriesMarkers.NONE);
    latency.setYAxisGroup(1);
    chart.setYAxisGroupTitle(1, "p99 milliseconds");
    double top = ops.stream().mapToDouble(Double::doubleValue).max().orElse(1);
    // moves: dashed grey annotation lines; the server's start and registration: red vertical series
    chart.getStyler().setAnnotationLineColor(Color.GRAY);
    chart.getStyler().setAnnotationLineStroke(
        new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_BEVEL, 10f, new float[] {4f, 4f}, 0f));
    for (GrowthMeasurement.Event e : result.events()) {
      if (e.what().contains("server")) {
        XYSeries mark = chart.addSeries(e.what(), List.of(e.atSeconds(), e.atSeconds()), List.of(0.0, top));
        mark.setMarker(SeriesMarkers.NONE);
        mark.setLineColor(e.what().contains("started") ? Color.RED : Color.MAGENTA);
        mark.setLineStyle(new BasicStroke(2f));
      } else {
        chart.addAnnotation(new AnnotationLine(e.atSeconds(), true, false));
      }
    }
    long moves = result.events().stream().filter(e -> e.what().startsWith("move")).count();
    chart.setXAxisTitle("seconds since the load started (dashed: each of the " + moves + " moves)");
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  private static long phase(SplitMeasurement.Row r, String name) {
    return r.phasesMillis().getOrDefault(name, 0L);
  }

  static String sizeLabel(int mb) {
    return mb >= 1024 && mb % 1024 == 0 ? (mb / 1024) + " GB" : mb + " MB";
  }

  private static double nanToZero(double d) {
    return Double.isNaN(d) ? 0 : d;
  }
}
