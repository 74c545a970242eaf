package io.basalt.bench.replication;

import io.basalt.bench.report.HostFacts;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What JE HA replica groups cost a region server at idle (the replication issue: "a region server must host at
 * least 200 region members"). Starts ZooKeeper, a master with replication factor 3 and 3 region servers as
 * child JVMs on 127.0.0.1, then for each step (default 0, 50 and 200 members per server) creates replicated
 * regions until every server hosts that many members, writes a few rows into each, lets the cluster settle and
 * measures each region server process over an idle window: threads, listening TCP ports, descriptors, RSS and
 * PSS, CPU, and optionally the heap after a full GC. A program, not a test: run {@code bin/replication-resources}.
 */
@Command(name = "replication-resources", sortOptions = false, usageHelpWidth = 110, mixinStandardHelpOptions = true,
    description = {
        "Measures threads, listening ports, file descriptors, memory (RSS, PSS, heap after GC) and idle CPU of",
        "region servers hosting N replicated region members each, on a local cluster of child JVMs (ZooKeeper,",
        "a master with --replication-factor, region servers with disjoint --replication-ports blocks).",
        "Results (summary.md, resources.csv, threads.csv, the servers' logs) go to --results."})
public final class ReplicationResources implements Callable<Integer> {
  @Option(names = "--steps", split = ",", paramLabel = "N", description = "Members per region server to measure at, "
      + "ascending (default ${DEFAULT-VALUE}); 0 is the idle cluster without tables.", defaultValue = "0,50,200")
  List<Integer> steps;

  @Option(names = "--settle-seconds", paramLabel = "S", defaultValue = "20",
      description = "Wait after the rows are written, before the window (default ${DEFAULT-VALUE}).")
  int settleSeconds;

  @Option(names = "--window-seconds", paramLabel = "S", defaultValue = "30",
      description = "Length of the idle measurement window (default ${DEFAULT-VALUE}).")
  int windowSeconds;

  @Option(names = "--regions-per-table", paramLabel = "N", defaultValue = "50",
      description = "Regions per created table; a step adds tables until it has its regions (default ${DEFAULT-VALUE}).")
  int regionsPerTable;

  @Option(names = "--rows-per-region", paramLabel = "N", defaultValue = "3",
      description = "Rows written into every region (default ${DEFAULT-VALUE}).")
  int rowsPerRegion;

  @Option(names = "--no-heap-after-gc", negatable = false,
      description = "Skip the heap figure (it runs jcmd GC.run and GC.heap_info on each server after the window).")
  boolean noHeapAfterGc;

  @Option(names = "--region-servers", paramLabel = "N", defaultValue = "3", description = "Region servers (default ${DEFAULT-VALUE}).")
  int regionServers;

  @Option(names = "--replication-factor", paramLabel = "N", defaultValue = "3",
      description = "Copies of each region, the master's --replication-factor (default ${DEFAULT-VALUE}).")
  int replicationFactor;

  @Option(names = "--server-heap-mb", paramLabel = "MB", defaultValue = "1024",
      description = "-Xmx of each region server (ZGC) (default ${DEFAULT-VALUE}).")
  int serverHeapMb;

  @Option(names = "--server-cache-mb", paramLabel = "MB", defaultValue = "256",
      description = "JE cache of each region server, --cache-mb (default ${DEFAULT-VALUE}).")
  int serverCacheMb;

  @Option(names = "--server-jvm-flags", paramLabel = "FLAGS",
      description = "Extra JVM flags of the region servers, space-separated.")
  String serverJvmFlags;

  @Option(names = "--master-heap-mb", paramLabel = "MB", defaultValue = "512", description = "-Xmx of the master (default ${DEFAULT-VALUE}).")
  int masterHeapMb;

  @Option(names = "--replication-port-base", paramLabel = "PORT", defaultValue = "30500",
      description = "First replication port of region server 0; server i gets the block after server i-1's "
          + "(default ${DEFAULT-VALUE}: below the ephemeral range, above the 20000-30100 the test clusters use).")
  int replicationPortBase;

  @Option(names = "--replication-ports-per-server", paramLabel = "N", defaultValue = "500",
      description = "Size of each region server's --replication-ports block (default ${DEFAULT-VALUE}).")
  int replicationPortsPerServer;

  @Option(names = "--create-timeout-seconds", paramLabel = "S", defaultValue = "1800",
      description = "How long one createTable may take (default ${DEFAULT-VALUE}).")
  long createTimeoutSeconds;

  @Option(names = "--stop-seconds", paramLabel = "S", defaultValue = "60",
      description = "Grace after SIGTERM before a child is killed at the end (default ${DEFAULT-VALUE}).")
  int stopSeconds;

  @Option(names = "--results", paramLabel = "DIR",
      description = "Where results go (default replication-resources-results/DATE-TIME).")
  Path results;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "Parent of the cluster's data (default the system "
      + "temporary directory); a fresh directory is made there and deleted at the end.")
  Path dataParent;

  @Option(names = "--keep-data", description = "Keep the cluster's data directory.")
  boolean keepData;

  private final PrintStream out = System.out;

  /** The result directory of the last run (for the smoke test). */
  Path resultsDir;

  Settings settings() {
    return new Settings(List.copyOf(steps), settleSeconds, windowSeconds, regionsPerTable, rowsPerRegion, !noHeapAfterGc,
        regionServers, replicationFactor, serverHeapMb, serverCacheMb,
        serverJvmFlags == null || serverJvmFlags.isBlank() ? List.of() : List.of(serverJvmFlags.trim().split("\\s+")),
        masterHeapMb, 128, replicationPortBase, replicationPortsPerServer, createTimeoutSeconds, stopSeconds);
  }

  @Override
  public Integer call() throws Exception {
    Settings s = settings();
    String problem = check(s);
    if (problem != null) {
      System.err.println("replication-resources: " + problem);
      return 2;
    }
    long runStart = System.nanoTime();
    String stamp = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    resultsDir = results != null ? results : Path.of("replication-resources-results", stamp);
    Files.createDirectories(resultsDir);
    Path parent = dataParent != null ? dataParent : Path.of(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(parent);
    Path data = Files.createTempDirectory(parent, "basalt-replication-resources-");
    List<String> facts = facts(s, data);
    facts.forEach(f -> out.println("# " + f));
    ResourceReport report = new ResourceReport(facts);
    long ticks = Machine.ticksPerSecond();
    boolean failed = false;
    ResourceCluster cluster = new ResourceCluster(s, data);
    try {
      long t0 = System.nanoTime();
      cluster.start();
      String started = String.format("cluster started in %.1f s: %s", (System.nanoTime() - t0) / 1e9,
          cluster.children().stream().map(c -> c.name() + " pid " + c.pid()
              + (c.firstReplicationPort() > 0 ? " replication ports " + c.firstReplicationPort() + "-" + c.lastReplicationPort() : ""))
              .toList());
      out.println(started);
      report.note(started);
      try (Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
           Admin admin = conn.getAdmin()) {
        MemberLoad load = new MemberLoad(conn, admin, s.regionsPerTable(), s.rowsPerRegion(), out);
        for (int members : s.steps()) {
          int regions = s.regionsFor(members);
          out.printf("step %d members per server: %d regions at %d copies on %d servers%n", members, regions,
              s.replicationFactor(), s.regionServers());
          MemberLoad.Growth growth = load.growTo(regions);
          out.printf("  %d regions added: create %.1f s, write %.1f s%n", growth.regionsAdded(), growth.createSeconds(),
              growth.writeSeconds());
          if (growth.failure() != null) {
            failed = true;
            out.println("  FAILED: " + growth.failure());
            report.note("step " + members + ": " + growth.failure());
            report.note("right after that failure: " + Machine.inotifyInUse());
          }
          out.printf("  settling %d s, then measuring for %d s%n", s.settleSeconds(), s.windowSeconds());
          Thread.sleep(s.settleSeconds() * 1000L);
          IdleWindow.Result window = IdleWindow.measure(cluster.regionServers(), s.windowSeconds(),
              s.heapAfterGc(), ticks);
          report.add(new ResourceReport.Step(members, growth, window));
          for (IdleWindow.Server v : window.servers()) {
            out.println("  " + line(v));
          }
          out.printf("  machine busy %.1f %% of all cores during the window; load average %s%n",
              window.machineBusyPercent(), window.loadAverageAfter());
          if (window.servers().stream().anyMatch(v -> !v.alive())) {
            failed = true;
            report.note("step " + members + ": a region server died: " + window.servers().stream()
                .filter(v -> !v.alive()).map(IdleWindow.Server::name).toList());
          }
          if (failed) {
            break;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      failed = true;
      out.println("FAILED: " + MemberLoad.firstLine(e));
      report.note("the run stopped: " + MemberLoad.firstLine(e));
    } finally {
      long t0 = System.nanoTime();
      cluster.close();
      out.printf("cluster stopped in %.1f s%n", (System.nanoTime() - t0) / 1e9);
      if (failed) {
        for (ResourceCluster.Child c : cluster.children()) {
          errorLines(c.log()).forEach(l -> report.note(c.name() + " log: `" + l + "`"));
        }
      }
      copyLogs(cluster, resultsDir.resolve("logs"));
      if (keepData) {
        out.println("# data kept in " + data);
      } else {
        deleteRecursively(data);
      }
    }
    report.note(String.format("whole run: %.1f s", (System.nanoTime() - runStart) / 1e9));
    String md = report.markdown();
    Files.writeString(resultsDir.resolve("summary.md"), md, StandardCharsets.UTF_8);
    report.writeCsv(resultsDir);
    out.println();
    out.println(md);
    out.println("# results in " + resultsDir.toAbsolutePath());
    return failed ? 1 : 0;
  }

  private static String check(Settings s) {
    if (s.steps().isEmpty()) {
      return "--steps is empty";
    }
    for (int i = 0; i < s.steps().size(); i++) {
      if (s.steps().get(i) < 0 || (i > 0 && s.steps().get(i) <= s.steps().get(i - 1))) {
        return "--steps must be ascending and not negative: " + s.steps();
      }
    }
    if (s.replicationFactor() < 1 || s.regionServers() < s.replicationFactor()) {
      return "--region-servers must be at least --replication-factor (and that at least 1)";
    }
    long lastPort = (long) s.replicationPortBase() + (long) s.regionServers() * s.replicationPortsPerServer() - 1;
    if (s.replicationPortBase() < 1024 || s.replicationPortsPerServer() < 1 || lastPort > 65535) {
      return "replication ports " + s.replicationPortBase() + "-" + lastPort + " are not usable ports";
    }
    if (s.regionsPerTable() < 1 || s.rowsPerRegion() < 1 || s.windowSeconds() < 1 || s.settleSeconds() < 0) {
      return "--regions-per-table, --rows-per-region and --window-seconds must be positive";
    }
    return null;
  }

  private static String line(IdleWindow.Server v) {
    if (!v.alive()) {
      return v.name() + " (pid " + v.pid() + ") is DEAD; " + v.membersOnDisk() + " members on disk";
    }
    ProcSnapshot e = v.end();
    return String.format(java.util.Locale.ROOT,
        "%s pid %d: %d members on disk, %d threads, %d listen ports (%d replication), %d TCP established, %d fds "
            + "(%d inotify), RSS %.1f MB, PSS %.1f MB, CPU %.2f %% of a core, heap after GC %.1f MB",
        v.name(), v.pid(), v.membersOnDisk(), e.threads(), e.listenPorts().size(), v.replicationPortsListening(),
        e.tcpEstablished(), e.fds(), e.inotifyInstances(), e.rssKb() / 1024.0, e.pssKb() / 1024.0, v.cpuPercent(), v.heapAfterGcMb());
  }

  private static List<String> facts(Settings s, Path data) throws IOException {
    List<String> facts = new ArrayList<>();
    facts.add("date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    facts.add("machine: " + Runtime.getRuntime().availableProcessors() + " cores" + HostFacts.cpuModelSuffix() + ", "
        + HostFacts.memory() + "; load average at the start: " + HostFacts.loadAverage());
    facts.add("limits: " + Machine.limits());
    facts.add("at the start: " + Machine.inotifyInUse());
    facts.add("java: " + System.getProperty("java.version") + "; region servers: -Xmx" + s.serverHeapMb()
        + "m -XX:+UseZGC " + String.join(" ", s.serverJvmFlags()) + ", JE cache " + s.serverCacheMb()
        + " MB; master -Xmx" + s.masterHeapMb() + "m, ZooKeeper -Xmx" + s.zookeeperHeapMb() + "m (all child JVMs)");
    facts.add("cluster: " + s.regionServers() + " region servers, replication factor " + s.replicationFactor()
        + ", replication ports " + s.replicationPortBase() + " + " + s.replicationPortsPerServer() + " per server");
    FileStore store = Files.getFileStore(data);
    facts.add(String.format("data: %s (%s, %,d MB free)", data, store.type(), store.getUsableSpace() >> 20));
    facts.add("steps (members per server): " + s.steps() + "; " + s.regionsPerTable() + " regions per table, "
        + s.rowsPerRegion() + " rows per region; settle " + s.settleSeconds() + " s, window " + s.windowSeconds()
        + " s; heap after GC " + (s.heapAfterGc() ? "measured (jcmd, after the window)" : "not measured"));
    return facts;
  }

  /** Lines of a server's log that name a resource or a failure (at most 10). */
  private static List<String> errorLines(Path log) {
    try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
      return lines.filter(l -> l.contains("OutOfMemoryError") || l.contains("native thread")
              || l.contains("Too many open files") || l.contains("BindException") || l.contains("Address already in use")
              || l.contains("WatchService") || l.contains("ERROR") || l.contains("Exception:"))
          .filter(l -> !l.contains("is gone; its")) // the servers stopping at the end
          .distinct().limit(5).map(l -> l.length() > 1200 ? l.substring(0, 1200) + " ..." : l).toList();
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  private static void copyLogs(ResourceCluster cluster, Path dir) {
    try {
      Files.createDirectories(dir);
      for (ResourceCluster.Child c : cluster.children()) {
        if (Files.exists(c.log())) {
          Files.copy(c.log(), dir.resolve(c.log().getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      System.err.println("could not copy the logs: " + e.getMessage());
    }
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
    System.exit(new CommandLine(new ReplicationResources()).execute(args));
  }
}
