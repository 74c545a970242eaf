package io.basalt.bench.elasticity;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Turns the measurements into CSV files, charts and a Markdown summary that compares them with the targets
 * of the elasticity issue (split and move unavailability under 200 ms, split flat over sizes; the
 * throughput dip while a server is added).
 */
final class Report {
  static final double TARGET_MILLIS = 200;

  private final Path dir;
  private final StringBuilder md = new StringBuilder();

  Report(Path dir, String title, List<String> facts) {
    this.dir = dir;
    md.append("# ").append(title).append("\n\n");
    for (String f : facts) {
      md.append("- ").append(f).append('\n');
    }
    md.append('\n');
  }

  void note(String text) {
    md.append(text).append("\n\n");
  }

  void split(List<SplitMeasurement.Row> rows) throws IOException {
    List<String> header = new ArrayList<>(List.of("size_mb", "rows", "region_disk_mb"));
    SplitMeasurement.PHASES.forEach(p -> header.add(p + "_ms"));
    header.addAll(List.of("master_unavailable_ms", "bytes_copied", "admin_call_ms", "probe_a_refused_to_served_ms",
        "probe_a_max_gap_ms", "probe_a_refused", "probe_b_refused_to_served_ms", "probe_b_max_gap_ms", "probe_b_refused"));
    List<List<Object>> csv = new ArrayList<>();
    for (SplitMeasurement.Row r : rows) {
      List<Object> row = new ArrayList<>(List.of(r.sizeMb(), r.rows(), r.regionDiskBytes() >> 20));
      SplitMeasurement.PHASES.forEach(p -> row.add(r.phasesMillis().getOrDefault(p, -1L)));
      row.addAll(List.of(r.masterUnavailableMillis(), r.bytesCopied(), r.adminCallMillis(),
          r.probeA().refusedToServedMillis(), r.probeA().maxGapMillis(), r.probeA().refused(),
          r.probeB().refusedToServedMillis(), r.probeB().maxGapMillis(), r.probeB().refused()));
      csv.add(row);
    }
    Csv.write(dir.resolve("split.csv"), header, csv);
    if (rows.isEmpty()) {
      md.append("## Split\n\nNo split measured.\n\n");
      return;
    }
    Charts.split(dir.resolve("split.png"), rows);
    md.append("## Split (Fig. 8)\n\n![split](split.png)\n\n");
    md.append("| region | on disk | close (drain+sync+close) | clone | open A | open B (in parallel with A) | publish | master: unavailable "
        + "| probe A refused→served (max gap) | probe B refused→served (max gap) | bytes copied |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (SplitMeasurement.Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %,d MB | %s | %s | %s | %s | %s | %,d ms | %s (%.0f ms) | %s (%.0f ms) | %,d |%n",
          Charts.sizeLabel(r.sizeMb()), r.regionDiskBytes() >> 20, ms(r, "close"), ms(r, "clone"), ms(r, "openA"),
          ms(r, "openB"), ms(r, "publish"), r.masterUnavailableMillis(), window(r.probeA()), r.probeA().maxGapMillis(),
          window(r.probeB()), r.probeB().maxGapMillis(), r.bytesCopied()));
    }
    double worst = rows.stream().mapToDouble(r -> Math.max(worstOf(r.probeA()), worstOf(r.probeB()))).max().orElse(0);
    double worstMaster = rows.stream().mapToLong(SplitMeasurement.Row::masterUnavailableMillis).max().orElse(0);
    double bestMaster = rows.stream().mapToLong(SplitMeasurement.Row::masterUnavailableMillis).min().orElse(0);
    md.append(String.format(Locale.ROOT, "%nTarget: unavailability under %.0f ms and flat across sizes. Worst seen by a "
        + "probe: %.0f ms; master's figure from %.0f to %.0f ms over %s. **%s**%n%n", TARGET_MILLIS, worst, bestMaster,
        worstMaster, rows.stream().map(r -> Charts.sizeLabel(r.sizeMb())).collect(Collectors.joining(", ")),
        worst < TARGET_MILLIS && worstMaster < TARGET_MILLIS ? "met" : "missed"));
  }

  void move(MoveMeasurement.Result result) throws IOException {
    List<MoveMeasurement.Row> rows = result.moves();
    List<String> header = new ArrayList<>(List.of("move", "from", "to", "source_disk_mb"));
    MoveMeasurement.PHASES.forEach(p -> header.add(p + "_ms"));
    header.addAll(List.of("master_unavailable_ms", "bytes_shipped", "probe_refused_to_served_ms", "probe_max_gap_ms",
        "probe_refused", "load_worst_p99_ms", "load_errors"));
    List<List<Object>> csv = new ArrayList<>();
    for (MoveMeasurement.Row r : rows) {
      List<Object> row = new ArrayList<>(List.of(r.n(), r.from(), r.to(), r.regionDiskBytes() >> 20));
      MoveMeasurement.PHASES.forEach(p -> row.add(r.phasesMillis().getOrDefault(p, -1L)));
      row.addAll(List.of(r.masterUnavailableMillis(), r.bytesShipped(), r.probe().refusedToServedMillis(),
          r.probe().maxGapMillis(), r.probe().refused(), r.loadWorstP99Millis(), r.loadErrors()));
      csv.add(row);
    }
    Csv.write(dir.resolve("move.csv"), header, csv);
    writeSeconds(dir.resolve("move-timeline.csv"), result.timeline());
    if (rows.isEmpty()) {
      md.append("## Move\n\nNo move measured.\n\n");
      return;
    }
    Charts.move(dir.resolve("move.png"), rows);
    md.append("## Move under a 95/5 load\n\n![move](move.png)\n\n");
    md.append("| move | source data on disk | prefetch | bytes shipped | close | catch-up + open | publish | master: "
        + "unavailable | source clean-up (after) | probe refused→served (max gap) | load: worst p99 | load errors |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (MoveMeasurement.Row r : rows) {
      md.append(String.format(Locale.ROOT, "| #%d %s→%s | %,d MB | %,d ms | %,d MB | %,d ms | %,d ms | %,d ms | %,d ms | %,d ms | %s (%.0f ms) | %.1f ms | %d |%n",
          r.n(), r.from(), r.to(), r.regionDiskBytes() >> 20, r.phasesMillis().getOrDefault("prefetch", -1L),
          r.bytesShipped() >> 20, r.phasesMillis().getOrDefault("close", -1L),
          r.phasesMillis().getOrDefault("catchUpAndOpen", -1L), r.phasesMillis().getOrDefault("publish", -1L),
          r.masterUnavailableMillis(), r.phasesMillis().getOrDefault("cleanUp", -1L), window(r.probe()), r.probe().maxGapMillis(), r.loadWorstP99Millis(), r.loadErrors()));
    }
    double worst = rows.stream().mapToDouble(r -> worstOf(r.probe())).max().orElse(0);
    long worstMaster = rows.stream().mapToLong(MoveMeasurement.Row::masterUnavailableMillis).max().orElse(0);
    md.append(String.format(Locale.ROOT, "%nTarget: unavailability under %.0f ms for a region under load. Worst seen by "
        + "the probe: %.0f ms; master's worst: %d ms. **%s**%n%n", TARGET_MILLIS, worst, worstMaster,
        worst < TARGET_MILLIS && worstMaster < TARGET_MILLIS ? "met" : "missed"));
  }

  void growth(GrowthMeasurement.Result result) throws IOException {
    writeSeconds(dir.resolve("growth.csv"), result.seconds());
    List<List<Object>> events = new ArrayList<>();
    for (GrowthMeasurement.Event e : result.events()) {
      events.add(List.of(e.atSeconds(), e.what(), e.durationMillis(), e.unavailableMillis(), e.bytes()));
    }
    Csv.write(dir.resolve("growth-events.csv"), List.of("at_s", "event", "duration_ms", "unavailable_ms", "bytes"), events);
    Charts.growth(dir.resolve("growth.png"), result);
    md.append("## Adding a server under load (Fig. 9)\n\n![growth](growth.png)\n\n");
    md.append("Regions per server before: ").append(result.regionsBefore()).append("; after: ")
        .append(result.regionsAfter()).append("\n\n");
    double started = result.events().stream().filter(e -> e.what().equals("third server started"))
        .mapToDouble(GrowthMeasurement.Event::atSeconds).findFirst().orElse(Double.NaN);
    List<GrowthMeasurement.Event> moves = result.events().stream().filter(e -> e.what().startsWith("move")).toList();
    double movesEnd = moves.stream().mapToDouble(e -> e.atSeconds() + e.durationMillis() / 1e3).max().orElse(started);
    Stats before = Stats.of(result.seconds(), 2, started);
    Stats during = Stats.of(result.seconds(), started, movesEnd + 1);
    Stats after = Stats.of(result.seconds(), movesEnd + 1, Double.MAX_VALUE);
    md.append("| phase | seconds | mean ops/s | lowest second ops/s | median of per-second p99 | worst per-second p99 | errors |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    md.append(before.row("before (2 servers)")).append(during.row("server added, moves running"))
        .append(after.row("after (3 servers)"));
    md.append("\n| at | event | took | unavailable (master) | bytes |\n|---|---|---|---|---|\n");
    for (GrowthMeasurement.Event e : result.events()) {
      md.append(String.format(Locale.ROOT, "| %.1f s | %s | %,d ms | %,d ms | %,d MB |%n", e.atSeconds(), e.what(),
          e.durationMillis(), e.unavailableMillis(), e.bytes() >> 20));
    }
    if (before.count > 0 && during.count > 0) {
      md.append(String.format(Locale.ROOT, "%nThroughput dip while the server was added: mean %.0f%% of before, lowest "
          + "second %.0f%% of the mean before; worst per-second p99 %.1f ms (before: %.1f ms).%n%n",
          100 * during.mean / before.mean, 100 * during.min / before.mean, during.worstP99, before.worstP99));
    }
  }

  /** Throughput and p99 over the seconds in [from, to). */
  private record Stats(int count, double mean, double min, double medianP99, double worstP99, long errors) {
    static Stats of(List<YcsbLoad.Second> seconds, double from, double to) {
      List<YcsbLoad.Second> in = seconds.stream().filter(s -> s.atSeconds() >= from && s.atSeconds() < to).toList();
      if (in.isEmpty()) {
        return new Stats(0, 0, 0, 0, 0, 0);
      }
      double[] p99 = in.stream().mapToDouble(YcsbLoad.Second::p99Millis).sorted().toArray();
      return new Stats(in.size(), in.stream().mapToLong(YcsbLoad.Second::ops).average().orElse(0),
          in.stream().mapToLong(YcsbLoad.Second::ops).min().orElse(0), p99[p99.length / 2], p99[p99.length - 1],
          in.stream().mapToLong(YcsbLoad.Second::errors).sum());
    }

    String row(String name) {
      return String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %.1f ms | %.1f ms | %d |%n", name, count, mean, min,
          medianP99, worstP99, errors);
    }
  }

  private static void writeSeconds(Path file, List<YcsbLoad.Second> seconds) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    for (YcsbLoad.Second s : seconds) {
      rows.add(List.of(s.atSeconds(), s.epochMillis(), s.ops(), s.errors(), s.p50Millis(), s.p99Millis(), s.maxMillis()));
    }
    Csv.write(file, List.of("at_s", "epoch_ms", "ops", "errors", "p50_ms", "p99_ms", "max_ms"), rows);
  }

  private static String ms(SplitMeasurement.Row r, String phase) {
    return String.format(Locale.ROOT, "%,d ms", r.phasesMillis().getOrDefault(phase, -1L));
  }

  private static String window(Probe.Window w) {
    if (Double.isNaN(w.refusedToServedMillis())) {
      return "not served again";
    }
    return w.refused() == 0 ? "none refused" : String.format(Locale.ROOT, "%.0f ms", w.refusedToServedMillis());
  }

  /** The larger of the probe's refused-to-served window and its longest gap between served gets. */
  private static double worstOf(Probe.Window w) {
    return Double.isNaN(w.refusedToServedMillis()) ? Double.POSITIVE_INFINITY
        : Math.max(w.refusedToServedMillis(), w.maxGapMillis());
  }

  String markdown() {
    return md.toString();
  }
}
