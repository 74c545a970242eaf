package io.basalt.bench.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.bench.compare.workload.Workload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Keeps the comparison runner working: the quick preset against a Basalt standalone child JVM only, with tiny
 * sizes and short runs. Every workload must appear in the report with a positive rate; the comparison with
 * HBase itself is not a CI gate.
 */
class BenchSmokeTest {
  static final String[] TINY = {"--quick", "--target", "basalt", "--seconds", "0.3", "--reps", "1", "--heap-mb",
      "256", "--cache-mb", "2", "--write-rows", "2000", "--ycsb-records", "500", "--threads", "2"};

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void quickPresetAgainstBasaltReportsEveryWorkload(@TempDir Path temp) throws Exception {
    BenchCommand.quietClientLogs();
    // Under Maven the results and the server's logs stay in target/bench-logs for a post-mortem.
    String logDir = System.getProperty("basalt.bench.logDir");
    Path out = logDir == null ? temp : Files.createDirectories(Path.of(logDir)).resolve("smoke-" + System.currentTimeMillis());
    String[] args = concat(TINY, "--out", out.toString());
    int exit = new CommandLine(new BenchCommand()).execute(args);
    assertThat(exit).isZero();

    String md = Files.readString(out.resolve("results.md"), StandardCharsets.UTF_8);
    BenchCommand parsed = new BenchCommand();
    new CommandLine(parsed).parseArgs(args);
    List<Workload> workloads = WorkloadSet.of(parsed.plan(), null);
    assertThat(workloads).hasSize(28);
    for (Workload w : workloads) {
      String row = md.lines().filter(l -> l.startsWith("| " + Comparison.id(w) + " ")).findFirst()
          .orElseThrow(() -> new AssertionError("no row for " + Comparison.id(w) + " in\n" + md));
      double opsPerSecond = Double.parseDouble(row.split("\\|")[2].trim().replace(",", ""));
      assertThat(opsPerSecond).as("ops/s of %s", Comparison.id(w)).isPositive();
    }
    assertThat(md.toLowerCase(Locale.ROOT)).contains("basalt: cold start to first answered operation");
    String csv = Files.readString(out.resolve("results.csv"), StandardCharsets.UTF_8);
    assertThat(csv.lines().count()).isEqualTo(1 + workloads.size());
    assertThat(out.resolve("pe-throughput.png")).isNotEmptyFile();
    assertThat(out.resolve("ycsb-latency.png")).isNotEmptyFile();
    // The server's data is gone, its logs (with the GC log the figures came from) stay.
    assertThat(out.resolve("servers/basalt/data")).doesNotExist();
    assertThat(out.resolve("servers/basalt/logs/basalt-gc.log")).isNotEmptyFile();
  }

  /**
   * The same at RF=3 with one table (the writes): a replicated cluster beside Basalt standalone, both in the report
   * with the RF=3/RF=1 ratio, and the cluster's five processes stopped and its data gone afterwards.
   */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aReplicatedClusterIsReportedAgainstRf1(@TempDir Path temp) throws Exception {
    BenchCommand.quietClientLogs();
    String logDir = System.getProperty("basalt.bench.logDir");
    Path out = logDir == null ? temp
        : Files.createDirectories(Path.of(logDir)).resolve("smoke-rf3-" + System.currentTimeMillis());
    String[] args = concat(TINY, "--replication-factor", "3", "--workloads", "sequentialWrite", "--out", out.toString());
    int exit = new CommandLine(new BenchCommand()).execute(args);
    assertThat(exit).isZero();

    String md = Files.readString(out.resolve("results.md"), StandardCharsets.UTF_8);
    assertThat(md).contains("basalt-rf3 ops/s").contains("p99 RF=3/RF=1").doesNotContain("RF=3/HBase")
        .contains("## Ratio Basalt RF=3 / Basalt RF=1 of every figure").contains("sums over these 5 JVMs")
        .contains("basalt-rf3: cold start to first answered operation");
    for (String id : List.of("sequentialWrite 1t autoflush", "sequentialWrite 2t buffered")) {
      for (String target : List.of("basalt-rf3", "basalt")) {
        String row = md.lines().filter(l -> l.startsWith("| " + id + " ") && l.contains("| " + target + " "))
            .findFirst().orElseThrow(() -> new AssertionError("no " + target + " row for " + id + " in\n" + md));
        assertThat(Double.parseDouble(row.split("\\|")[3].trim().replace(",", ""))).as("ops/s of %s on %s", id, target)
            .isPositive();
      }
    }
    String csv = Files.readString(out.resolve("results.csv"), StandardCharsets.UTF_8);
    assertThat(csv.lines().filter(l -> l.contains(",basalt-rf3/basalt,"))).hasSize(4);
    assertThat(out.resolve("servers/basalt-rf3/data")).doesNotExist();
    assertThat(out.resolve("servers/basalt-rf3/logs/regionserver-0-gc.log")).isNotEmptyFile();
  }

  /**
   * --security on one write and one scan workload: Basalt plain and Basalt with TLS and ACLs, the secured one
   * reached only over TLS as the granted user (the bench's own calls would fail otherwise), both in the report with
   * the secured/plain ratio, and no errors.
   */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void securityModeReportsSecuredAgainstPlain(@TempDir Path temp) throws Exception {
    BenchCommand.quietClientLogs();
    String logDir = System.getProperty("basalt.bench.logDir");
    Path out = logDir == null ? temp
        : Files.createDirectories(Path.of(logDir)).resolve("smoke-security-" + System.currentTimeMillis());
    int exit = new CommandLine(new BenchCommand()).execute(concat(TINY, "--security", "--workloads",
        "randomWrite,scanRange100", "--out", out.toString()));
    assertThat(exit).isZero();

    String md = Files.readString(out.resolve("results.md"), StandardCharsets.UTF_8);
    assertThat(md).contains("# Cost of security").contains("basalt-secure ops/s").contains("| Basalt sec/Basalt |")
        .contains("## Ratio Basalt with TLS and ACLs / Basalt of every figure").contains("'benchuser', not a superuser")
        .doesNotContain("hbase ops/s").doesNotContain("hbase-secure ops/s");
    for (String id : List.of("randomWrite 1t autoflush", "randomWrite 1t buffered", "scanRange100 1t")) {
      for (String target : List.of("basalt", "basalt-secure")) {
        String[] row = md.lines().filter(l -> l.startsWith("| " + id + " ") && l.contains("| " + target + " "))
            .findFirst().orElseThrow(() -> new AssertionError("no " + target + " row for " + id + " in\n" + md))
            .split("\\|");
        assertThat(Double.parseDouble(row[3].trim().replace(",", ""))).as("ops/s of %s on %s", id, target)
            .isPositive();
        assertThat(row[row.length - 1].trim()).as("errors of %s on %s", id, target).isEqualTo("0");
      }
    }
    // the run's CA and stores stay with the results, the secured server's data does not
    assertThat(out.resolve("servers/basalt-secure/data")).doesNotExist();
    assertThat(out.resolve("servers/pki/truststore.p12")).isNotEmptyFile();
  }

  /** --profile and --raw-engine on one workload: per-workload profiles of the server, and Basalt/raw in the report. */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void profileAndRawEngineModesReportTheServersProfileAndTheEnginesRate(@TempDir Path temp) throws Exception {
    BenchCommand.quietClientLogs();
    String logDir = System.getProperty("basalt.bench.logDir");
    Path out = logDir == null ? temp
        : Files.createDirectories(Path.of(logDir)).resolve("smoke-profile-" + System.currentTimeMillis());
    int exit = new CommandLine(new BenchCommand()).execute(concat(TINY, "--workloads", "scanRange100", "--profile",
        "--raw-engine", "--out", out.toString()));
    assertThat(exit).isZero();

    String profiles = Files.readString(out.resolve("profiles/profiles.md"), StandardCharsets.UTF_8);
    assertThat(profiles).contains("## scanRange100 1t on basalt").contains("## scanRange100 2t on basalt")
        .contains("bytes allocated per operation");
    assertThat(out.resolve("profiles/basalt-scanRange100-2t-cpu.svg")).isNotEmptyFile();
    assertThat(out.resolve("profiles/basalt-scanRange100-2t-alloc.collapsed")).isNotEmptyFile();
    String md = Files.readString(out.resolve("results.md"), StandardCharsets.UTF_8);
    String rawRow = md.lines().filter(l -> l.startsWith("| scanRange100 2t ") && l.split("\\|").length > 8)
        .reduce((first, last) -> last).orElseThrow(() -> new AssertionError("no raw engine row in\n" + md));
    assertThat(md).contains("## Basalt end to end against its raw engine");
    assertThat(Double.parseDouble(rawRow.split("\\|")[3].trim().replace(",", ""))).as("raw engine ops/s").isPositive();
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
