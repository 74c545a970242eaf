package io.basalt.bench.compare;

import io.basalt.bench.compare.measure.Figures;
import io.basalt.bench.compare.measure.QuietWait;
import io.basalt.bench.compare.report.Charts;
import io.basalt.bench.compare.report.Csv;
import io.basalt.bench.compare.report.ProgressBar;
import io.basalt.bench.compare.report.Report;
import io.basalt.bench.compare.report.SustainedReport;
import io.basalt.bench.compare.launch.BasaltCluster;
import io.basalt.bench.compare.launch.BasaltStandalone;
import io.basalt.bench.compare.launch.HBaseStandalone;
import io.basalt.bench.compare.launch.RunningCluster;
import io.basalt.bench.compare.launch.ServerSettings;
import io.basalt.bench.compare.launch.Target;
import io.basalt.bench.compare.profile.Profiling;
import io.basalt.bench.compare.raw.RawEngine;
import io.basalt.bench.compare.security.BenchPki;
import io.basalt.bench.compare.security.SecuredTarget;
import io.basalt.bench.compare.security.SecurityMode;
import io.basalt.bench.compare.workload.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/basalt bench}: Basalt against real Apache HBase 2.6.4 on this machine, in one run, through the
 * unmodified HBase client; prints the Markdown report and writes it, a CSV and PNG charts to the results
 * directory.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs PerformanceEvaluation-style workloads and YCSB core workloads A-F against Basalt and",
        "Apache HBase 2.6.4 (both started here as standalone servers with the same heap and cache), alternating",
        "between them run by run, and reports throughput, latency, server CPU, memory, disk writes and GC,",
        "with the ratio Basalt/HBase. With --replication-factor N (N > 1) it also starts a local Basalt cluster whose",
        "regions have N copies each and reports it against Basalt RF=1 and HBase. With --security it also starts",
        "each target again with TLS and ACLs on and reports the cost of security (secured / plain)."})
public final class BenchCommand implements Callable<Integer> {
  @Option(names = "--target", description = "basalt, hbase or both (default: ${DEFAULT-VALUE})", defaultValue = "both")
  String target;

  @Option(names = "--connect", paramLabel = "ZK_HOST:PORT",
      description = "run against this already running cluster (with --target basalt or hbase)")
  String connect;

  @Option(names = "--quick", description = "the quick preset (default): 64 MB cache, 2 s runs, a few minutes")
  boolean quick;

  @Option(names = "--full", description = "the full preset: 2 GB heap, 512 MB cache, 2 GB uncached table, 30 s runs")
  boolean full;

  @Option(names = "--out", paramLabel = "DIR", description = "results directory (default: bench-results/DATE-TIME)")
  Path out;

  @Option(names = "--workloads", paramLabel = "LIST",
      description = "only these: comma-separated groups (pe, ycsb) or workload name prefixes (randomRead, ycsb-a)")
  String workloads;

  @Option(names = "--seconds", paramLabel = "S", description = "time budget of each measured run")
  Double seconds;

  @Option(names = "--reps", paramLabel = "N", description = "measured runs per workload and target (alternating)")
  Integer repetitions;

  @Option(names = "--threads", paramLabel = "N", description = "client threads of the multi-threaded variants")
  Integer threads;

  @Option(names = "--heap-mb", paramLabel = "MB", description = "heap of each server")
  Integer heapMb;

  @Option(names = "--cache-mb", paramLabel = "MB", description = "Basalt's JE cache = HBase's block cache")
  Integer cacheMb;

  @Option(names = "--write-rows", paramLabel = "N", description = "key space (and row bound) of the write workloads")
  Long writeRows;

  @Option(names = "--ycsb-records", paramLabel = "N", description = "YCSB recordcount")
  Long ycsbRecords;

  @Option(names = "--sustained-seconds", paramLabel = "S", description = {"run time of the sustained write workload "
      + "(default 600, --full 1800); it runs only when named: --workloads sustained"})
  Double sustainedSeconds;

  @Option(names = "--replication-factor", paramLabel = "N", defaultValue = "1",
      description = {"copies of each region (default: ${DEFAULT-VALUE}); above 1, Basalt also runs as a local cluster "
          + "(ZooKeeper, a master, N region servers of the standalone's heap and cache each) measured in alternation "
          + "with Basalt standalone (RF=1) and HBase"})
  int replicationFactor;

  @Option(names = "--security", description = {"also run each target with security on (TLS on client RPC, "
      + "authorisation on, the workloads as an ordinary user with a namespace grant; HBase with its AccessController)"
      + " in alternation with it off, and report secured/plain ratios; default workloads: randomWrite, randomRead "
      + "(data in cache), scan and scanRange100"})
  boolean security;

  @Option(names = "--jfr", description = "record a JFR profile of the Basalt server (servers/basalt/logs/basalt.jfr; "
      + "a cluster's region servers: servers/basalt-rfN/logs/regionserver-I.jfr)")
  boolean jfr;

  @Option(names = "--profile", description = {"profile the Basalt server(s) with JFR (as --jfr) and write, per workload,"
      + " CPU, allocation and lock-wait flame graphs, collapsed stacks and profiles.md to profiles/ (each workload's"
      + " measured runs only); best with one workload or a few (--workloads)"})
  boolean profile;

  @Option(names = "--raw-engine", description = {"after the comparison, run the PE workloads in process against the "
      + "storage engine (JE) with the server's heap and cache (the raw ceiling) and report Basalt/raw beside "
      + "Basalt/HBase (results.md, raw-engine.md)"})
  boolean rawEngine;

  @Option(names = "--keep-data", description = "keep the servers' data directories after the run")
  boolean keepData;

  /** What --security runs unless --workloads says otherwise: a write, a random read and the two scans. */
  static final String SECURITY_WORKLOADS = "randomWrite,randomRead (data in cache),scan";

  public static void main(String[] args) {
    quietClientLogs();
    System.exit(new CommandLine(new BenchCommand()).execute(args));
  }

  /**
   * The HBase client logs every failed readiness probe and retry with a stack trace; the report is what matters.
   * Explicit -D settings win.
   */
  static void quietClientLogs() {
    System.getProperties().putIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.getProperties().putIfAbsent("org.slf4j.simpleLogger.log.org.apache.hadoop", "error");
    System.getProperties().putIfAbsent("org.slf4j.simpleLogger.log.org.apache.zookeeper", "error");
  }

  Plan plan() {
    if (quick && full) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--quick and --full exclude each other");
    }
    Plan p = full ? Plan.full() : Plan.quick();
    if (heapMb != null || cacheMb != null) {
      p = p.withMemory(heapMb != null ? heapMb : p.heapMb(), cacheMb != null ? cacheMb : p.cacheMb());
    }
    if (seconds != null) {
      p = p.withRunTime(Duration.ofMillis(Math.round(seconds * 1000)));
    }
    if (repetitions != null) {
      p = p.withRepetitions(repetitions);
    }
    if (threads != null) {
      p = p.withThreads(threads);
    }
    if (writeRows != null) {
      p = p.withWriteKeyspace(writeRows);
    }
    if (ycsbRecords != null) {
      p = p.withYcsbRecords(ycsbRecords);
    }
    if (sustainedSeconds != null) {
      p = p.withSustainedTime(Duration.ofMillis(Math.round(sustainedSeconds * 1000)));
    }
    return p;
  }

  @Override
  public Integer call() throws Exception {
    Plan plan = plan();
    String machine = Machine.describe();
    ZonedDateTime started = ZonedDateTime.now();
    List<String> names = targetNames();
    if (connect != null && names.size() != 1) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--connect needs --target basalt or hbase"
          + (replicationFactor > 1 ? ", without --replication-factor (the bench starts the replicated cluster)" : ""));
    }
    Path results = out != null ? out
        : Path.of("bench-results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Files.createDirectories(results);
    Path servers = results.resolve("servers").toAbsolutePath();
    List<Workload> selected = WorkloadSet.of(plan, workloads == null && security ? SECURITY_WORKLOADS : workloads);
    if (selected.isEmpty()) {
      throw new CommandLine.ParameterException(new CommandLine(this), "no workload matches --workloads " + workloads);
    }
    if (security && (connect != null || replicationFactor > 1)) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--security starts its own standalone servers:"
          + " not with --connect or --replication-factor");
    }
    if (rawEngine && connect != null) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--raw-engine uses the plan's heap and cache:"
          + " not with --connect");
    }
    if (profile && connect != null) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--profile records the servers the bench starts:"
          + " not with --connect");
    }
    ServerSettings settings = new ServerSettings(plan.heapMb(), plan.cacheMb(), servers, jfr || profile);
    BenchPki pki = security ? BenchPki.create(servers.resolve("pki")) : null;
    List<Target> targets = new ArrayList<>();
    ProgressBar progress = new ProgressBar(System.err, selected.size() * names.size() * plan.repetitions());
    Comparison.Outcome outcome;
    try {
      for (String name : names) {
        progress.status("starting " + name);
        targets.add(connect != null ? RunningCluster.parse(name, connect) : start(name, settings, pki));
      }
      outcome = new Comparison(plan, targets, progress).run(selected);
      progress.close();
      List<Report.Row> rows = new ArrayList<>();
      for (Workload w : selected) {
        Map<String, Figures> byTarget = outcome.figures().get(Comparison.id(w));
        rows.add(new Report.Row(Comparison.id(w), w.group(), byTarget));
      }
      String md = Report.markdown(header(plan, started, machine, targets, outcome), rows, names)
          + SustainedReport.write(results, outcome.timelines());
      Files.writeString(results.resolve("results.md"), md, StandardCharsets.UTF_8);
      Files.writeString(results.resolve("results.csv"), Csv.of(rows, names), StandardCharsets.UTF_8);
      Charts.write(results, rows, names);
      System.out.print(md);
      System.err.println("results in " + results.toAbsolutePath());
    } finally {
      progress.close();
      for (Target t : targets) {
        t.close();
      }
      if (!keepData) {
        deleteRecursively(servers.resolve("basalt").resolve("data"));
        if (replicationFactor > 1) {
          deleteRecursively(servers.resolve(BasaltCluster.name(replicationFactor)).resolve("data"));
        }
        for (String hbase : List.of(Report.HBASE, Report.HBASE + Report.SECURE)) {
          deleteRecursively(servers.resolve(hbase).resolve("data"));
          deleteRecursively(servers.resolve(hbase).resolve("zookeeper"));
        }
        deleteRecursively(servers.resolve(Report.BASALT + Report.SECURE).resolve("data"));
      }
    }
    if (rawEngine) {
      System.err.println("running the PE workloads against the raw engine (JE in process)...");
      Map<String, RawEngine.Result> raw = RawEngine.run(plan, workloads, servers.resolve("raw-je"));
      String section = RawEngine.markdown(outcome.figures(), raw, Report.BASALT, Report.HBASE);
      Files.writeString(results.resolve("raw-engine.md"), section, StandardCharsets.UTF_8);
      Files.writeString(results.resolve("results.md"), "\n" + section, StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.APPEND);
      System.out.print("\n" + section);
    }
    if (profile) {
      // The recordings are complete only now: each server dumps its own when it exits.
      List<String> facts = header(plan, started, machine, targets, outcome).subList(2, 5).stream()
          .map(line -> line.substring(2)).toList();
      Profiling.write(results.resolve("profiles"), servers, names, outcome.windows(), facts);
      System.err.println("profiles in " + results.resolve("profiles").toAbsolutePath());
    }
    return 0;
  }

  /**
   * The targets, in the order each workload runs against them: with a replication factor above 1 the replicated
   * cluster first, then Basalt standalone (RF=1), then HBase.
   */
  List<String> targetNames() {
    if (replicationFactor < 1 || replicationFactor > 7) {
      throw new CommandLine.ParameterException(new CommandLine(this),
          "--replication-factor must be 1 to 7, not " + replicationFactor);
    }
    List<String> names = new ArrayList<>();
    switch (target) {
      case "both" -> names.addAll(List.of(Report.BASALT, Report.HBASE));
      case "basalt", "hbase" -> names.add(target);
      default -> throw new CommandLine.ParameterException(new CommandLine(this),
          "--target must be basalt, hbase or both, not " + target);
    }
    if (security) {
      // secured right after plain, so each pair runs back to back: basalt, basalt-secure, hbase, hbase-secure
      List<String> withSecured = new ArrayList<>();
      for (String n : names) {
        withSecured.add(n);
        withSecured.add(n + Report.SECURE);
      }
      names = withSecured;
    }
    if (replicationFactor > 1) {
      if (!names.contains(Report.BASALT)) {
        throw new CommandLine.ParameterException(new CommandLine(this),
            "--replication-factor is Basalt's: use it with --target basalt or both");
      }
      names.add(0, BasaltCluster.name(replicationFactor));
    }
    return names;
  }

  private Target start(String name, ServerSettings settings, BenchPki pki) throws IOException, InterruptedException {
    if (name.equals(Report.BASALT + Report.SECURE)) {
      return SecuredTarget.of(BasaltStandalone.start(settings, name, SecurityMode.basalt(pki),
          conf -> SecurityMode.client(conf, pki)));
    }
    if (name.equals(Report.HBASE + Report.SECURE)) {
      return SecuredTarget.of(HBaseStandalone.start(settings, name, SecurityMode.hbase(pki),
          conf -> SecurityMode.client(conf, pki)));
    }
    if (name.equals(Report.BASALT)) {
      return BasaltStandalone.start(settings);
    }
    return name.equals(Report.HBASE) ? HBaseStandalone.start(settings) : BasaltCluster.start(settings, replicationFactor);
  }

  private List<String> header(Plan plan, ZonedDateTime started, String machine, List<Target> targets, Comparison.Outcome outcome) {
    List<String> h = new ArrayList<>();
    h.add(replicationFactor > 1
        ? "# Basalt RF=" + replicationFactor + " vs RF=1" + (targets.stream().anyMatch(t -> t.name().equals(Report.HBASE))
            ? " vs Apache HBase 2.6.4" : "") + ": " + plan.preset() + " comparison"
        : security ? "# Cost of security (TLS and ACLs on vs off): " + plan.preset() + " comparison"
        : "# Basalt vs Apache HBase 2.6.4: " + plan.preset() + " comparison");
    h.add("");
    h.add("- started: " + started.format(DateTimeFormatter.RFC_1123_DATE_TIME));
    h.add("- machine: " + machine);
    h.add(String.format(Locale.ROOT, "- plan: server heap %d MB each, cache %d MB each (Basalt JE cache = HBase block "
            + "cache), %s s per run, %d runs per workload and target alternating, N = %d client threads, write key "
            + "space %,d rows, in-cache table %,d rows, 4x-cache table %,d rows, YCSB %,d records of 1 KB",
        plan.heapMb(), plan.cacheMb(), plan.runTime().toMillis() / 1000.0, plan.repetitions(), plan.threads(),
        plan.writeKeyspace(), plan.cachedRows(), plan.uncachedRows(), plan.ycsbRecords()));
    if (replicationFactor > 1) {
      h.add(String.format(Locale.ROOT, "- %s: a Basalt cluster on loopback, every region a replica group of %d "
              + "members: 1 ZooKeeper and 1 master (%d MB heap each, basalt.replication.factor=%d) and %d region "
              + "servers with %d MB heap and %d MB cache each (each holds a copy of every region); SYNC_WAL writes "
              + "are acknowledged once a majority of the group holds them. Its CPU, memory, disk and GC figures are "
              + "the sums over these %d JVMs (GC max: the longest pause of any); basalt: Basalt standalone (RF=1)",
          BasaltCluster.name(replicationFactor), replicationFactor, BasaltCluster.COORDINATOR_HEAP_MB,
          replicationFactor, replicationFactor, plan.heapMb(), plan.cacheMb(), replicationFactor + 2));
    }
    for (Target t : targets) {
      h.add("- " + t.name() + ": " + t.coldStart().map(d -> String.format(Locale.ROOT,
          "cold start to first answered operation %.1f s", d.toMillis() / 1000.0)).orElse("already running (--connect): "
          + "client-side figures only"));
    }
    outcome.loads().forEach((table, times) -> {
      StringBuilder s = new StringBuilder("- load " + table + ":");
      times.forEach((t, d) -> s.append(String.format(Locale.ROOT, " %s %.1f s", t, d.toMillis() / 1000.0)));
      h.add(s.toString());
    });
    if (security) {
      h.add("- *-secure: the same server with TLS on client RPC (hbase.server.netty.tls.enabled, TLSv1.2, EC P-256 "
          + "server certificate, no plaintext, no client certificate: client auth NONE; the servers' own calls over "
          + "TLS too) and authorisation on (hbase.security.authorization; HBase: its AccessController as master, "
          + "region and region server coprocessor); the workloads run as '" + SecurityMode.USER + "', not a "
          + "superuser, granted CREATE, READ, WRITE on the default namespace (so it creates, and owns, the tables)");
    }
    h.add("- latencies are per client operation (a scan: per row; scanRange100: per 100-row scan; buffered writes: "
        + "per mutate call, with the final flush in the run's time)");
    h.add("- each PE workload runs once unmeasured on each target before its measured runs (at most 10 s), so that a "
        + "run measures the servers' compiled paths, not their JIT warm-up");
    h.add("- scan: each client thread scans its slice of the in-cache table, a new scanner per pass, pass after pass "
        + "until the run's time is up");
    if (targets.size() > 1) {
      h.add(settledLine(outcome.settled()));
    }
    return h;
  }

  /** What the waits for the other targets to go idle came to: the longest, and any that reached the limit. */
  static String settledLine(List<Comparison.Settled> settled) {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "- each measured run starts once the other "
        + "targets' servers use under %.1f cores over %d s (their flushes, compactions, cleaning left from their own "
        + "runs; at most %d s)", QuietWait.IDLE_CORES, QuietWait.SAMPLE.toSeconds(), QuietWait.LIMIT.toSeconds()));
    settled.stream().max(Comparator.comparing(x -> x.idle().waited())).ifPresent(m -> s.append(String.format(
        Locale.ROOT, ": longest wait %d s, before %s on %s", m.idle().waited().toSeconds(), m.workload(),
        m.target())));
    List<String> late = settled.stream().filter(x -> !x.idle().quiet()).map(x -> x.workload() + " on " + x.target())
        .toList();
    if (!late.isEmpty()) {
      s.append("; not idle within the limit before ").append(String.join(", ", late));
    }
    return s.toString();
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException ignored) {
      // best effort: the logs beside it matter more
    }
  }
}
