package io.basalt.bench.elasticity;

import io.basalt.bench.report.HostFacts;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The elasticity benchmark (issue 4 item 7; the paper's §IV.C, Fig. 8 and 9): starts a cluster on 127.0.0.1
 * (ZooKeeper and master in this JVM, region servers as child JVMs) and measures split steps and
 * unavailability per region size, moves of a large region under a 95/5 load, and client throughput and p99
 * while a third server joins and the balancer moves a third of the regions to it. Writes CSV files, PNG
 * charts and a Markdown summary to a results directory. A program, not a test: run {@code bin/elasticity-bench}.
 */
@Command(name = "elasticity-bench", sortOptions = false, usageHelpWidth = 110, mixinStandardHelpOptions = true,
    description = {
        "Measures Basalt's elasticity on a local cluster (ZooKeeper and master in-process, region servers as",
        "child JVMs): split time per step and unavailability for each region size (Fig. 8), moves of a large",
        "region under a 95/5 load, and throughput/p99 per second while a third server is added (Fig. 9).",
        "MB = 2^20 bytes of values. Results (CSV, PNG, summary.md) go to --results."})
public final class ElasticityBench implements Callable<Integer> {
  enum Measurement { split, move, growth }

  @Option(names = "--quick", description = "Small sizes (splits of 20 and 100 MB, a 100 MB region moved twice, "
      + "20,000 records, 35 s growth run); explicit options still win.")
  boolean quick;

  @Option(names = "--only", split = ",", paramLabel = "M", description = "Measurements to run, of: ${COMPLETION-CANDIDATES} (default all).")
  List<Measurement> only;

  @Option(names = "--split-sizes-mb", split = ",", paramLabel = "MB", description = "Region sizes to split (default 100,1024,5120).")
  List<Integer> splitSizesMb;

  @Option(names = "--move-size-mb", paramLabel = "MB", description = "Size of the moved region (default 1024).")
  Integer moveSizeMb;

  @Option(names = "--moves", paramLabel = "N", description = "Moves of that region, back and forth (default 3).")
  Integer moves;

  @Option(names = "--value-bytes", paramLabel = "B", description = "Value size of the split and moved regions' rows (default 8192).")
  Integer valueBytes;

  @Option(names = "--threads", paramLabel = "N", description = "Client threads of the 95/5 load (default 8).")
  Integer threads;

  @Option(names = "--records", paramLabel = "N", description = "Records of the growth run's table (default 300000).")
  Long records;

  @Option(names = "--regions", paramLabel = "N", description = "Regions of the growth run's table (default 12).")
  Integer regions;

  @Option(names = "--warmup-seconds", paramLabel = "S", description = "Load before the third server starts (default 60).")
  Integer warmupSeconds;

  @Option(names = "--growth-seconds", paramLabel = "S", description = "Length of the growth run (default 240).")
  Integer growthSeconds;

  @Option(names = "--balance-pause-ms", paramLabel = "MS", description = "Pause between balancer moves (default 4000, as the paper).")
  Long balancePauseMillis;

  @Option(names = "--server-heap-mb", paramLabel = "MB", description = "Heap of each region server JVM (default 1024).")
  Integer serverHeapMb;

  @Option(names = "--server-cache-mb", paramLabel = "MB", description = "JE cache of each region server (default 256).")
  Integer serverCacheMb;

  @Option(names = "--server-jvm-flags", paramLabel = "FLAGS", description = "Extra JVM flags of the region servers, "
      + "space-separated (e.g. -XX:StartFlightRecording=filename=DIR/ to profile them).")
  String serverJvmFlags;

  @Option(names = "--profile", paramLabel = "DIR", description = "Record each region server with Java Flight Recorder "
      + "(profile settings) and dump the recordings to DIR before the servers stop.")
  Path profileDir;

  @Option(names = "--results", paramLabel = "DIR", description = "Where results go (default elasticity-results/DATE-TIME).")
  Path results;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "Parent of the cluster's data (default the system temporary directory); a fresh directory is made and deleted at the end.")
  Path dataParent;

  @Option(names = "--keep-data", description = "Keep the cluster's data and logs.")
  boolean keepData;

  private PrintStream out = System.out;

  /** The result directory of the last run (for the smoke test). */
  Path resultsDir;

  Settings settings() {
    Settings d = quick ? Settings.quick() : Settings.full();
    return new Settings(or(splitSizesMb, d.splitSizesMb()), or(moveSizeMb, d.moveSizeMb()), or(moves, d.moves()),
        or(valueBytes, d.bulkValueBytes()), or(threads, d.threads()), d.readPercent(), or(records, d.records()), d.recordBytes(),
        or(regions, d.regions()), or(warmupSeconds, d.growthWarmupSeconds()), or(growthSeconds, d.growthSeconds()),
        or(balancePauseMillis, d.balancePauseMillis()), or(serverHeapMb, d.serverHeapMb()),
        or(serverCacheMb, d.serverCacheMb()),
        serverJvmFlags == null || serverJvmFlags.isBlank() ? List.of() : List.of(serverJvmFlags.trim().split("\\s+")));
  }

  private static <T> T or(T value, T fallback) {
    return value != null ? value : fallback;
  }

  @Override
  public Integer call() throws Exception {
    Settings s = settings();
    Set<Measurement> run = only == null ? EnumSet.allOf(Measurement.class) : EnumSet.copyOf(only);
    String stamp = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    resultsDir = results != null ? results : Path.of("elasticity-results", stamp);
    Files.createDirectories(resultsDir);
    Path parent = dataParent != null ? dataParent : Path.of(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(parent);
    Path data = Files.createTempDirectory(parent, "basalt-elasticity-");
    List<String> facts = facts(s, run, data);
    facts.forEach(f -> out.println("# " + f));
    Report report = new Report(resultsDir, "Basalt elasticity benchmark, " + stamp, facts);
    List<String> notes = new ArrayList<>();
    if (profileDir != null) {
      Files.createDirectories(profileDir);
    }
    try (BenchCluster cluster = new BenchCluster(s, data, profileDir)) {
      cluster.addRegionServer();
      cluster.addRegionServer();
      cluster.awaitLiveServers(2);
      try (Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
           Admin admin = conn.getAdmin()) {
        admin.balancerSwitch(false, true);
        if (run.contains(Measurement.split)) {
          List<SplitMeasurement.Row> rows = SplitMeasurement.run(cluster, conn, admin, s, data, out, notes);
          notes.forEach(report::note);
          notes.clear();
          report.split(rows);
        }
        if (run.contains(Measurement.move)) {
          MoveMeasurement.Result moves = MoveMeasurement.run(cluster, conn, admin, s, out, notes);
          notes.forEach(report::note);
          notes.clear();
          report.move(moves);
        }
        if (run.contains(Measurement.growth)) {
          report.growth(GrowthMeasurement.run(cluster, conn, admin, s, out));
        }
      }
      report.note("Load average at the end: " + HostFacts.loadAverage());
    } finally {
      if (keepData) {
        out.println("# data and region server logs kept in " + data);
      } else {
        deleteRecursively(data);
      }
    }
    Files.writeString(resultsDir.resolve("summary.md"), report.markdown(), StandardCharsets.UTF_8);
    out.println();
    out.println(report.markdown());
    out.println("# results in " + resultsDir.toAbsolutePath());
    return 0;
  }

  private static List<String> facts(Settings s, Set<Measurement> run, Path data) throws IOException {
    List<String> facts = new ArrayList<>();
    facts.add("date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    facts.add("machine: " + Runtime.getRuntime().availableProcessors() + " cores" + HostFacts.cpuModelSuffix() + ", "
        + HostFacts.memory() + "; load average at the start: " + HostFacts.loadAverage());
    facts.add("java: " + System.getProperty("java.version") + "; region servers: -Xmx" + s.serverHeapMb()
        + "m, ZGC, JE cache " + s.serverCacheMb() + " MB; master and ZooKeeper in the benchmark's JVM");
    FileStore store = Files.getFileStore(data);
    facts.add(String.format("data: %s (%s, %,d MB free)", data, store.type(), store.getUsableSpace() >> 20));
    facts.add("measurements: " + run + "; settings: " + s);
    return facts;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(new CommandLine(new ElasticityBench()).execute(args));
  }
}
