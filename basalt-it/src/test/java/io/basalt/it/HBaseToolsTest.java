package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.ClusterTarget;
import io.basalt.it.target.Processes;
import io.basalt.it.target.Targets;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * HBase's own load tools, unmodified from hbase-mapreduce 2.6.4's tests jar, each in a child JVM against the
 * Basalt target's ZooKeeper: PerformanceEvaluation (threads, not MapReduce) and LoadTestTool. Each must exit 0
 * with no error in its output. PE's rows/s are printed (and appended to target/target-logs/pe-summary.txt); they
 * are small runs on a shared 2-core box, so they show that the path works, not how fast it is.
 */
@Timeout(180)
class HBaseToolsTest {
  private static final String TOOLS_CLASSPATH = "basalt.it.hbaseToolsClasspath";
  private static final int PE_ROWS = Integer.getInteger("basalt.it.pe.rows", 2000);
  /** Targets PE runs against, alternating per command so drift hits both alike: "basalt" or "basalt,hbase". */
  private static final List<String> PE_TARGETS = List.of(System.getProperty("basalt.it.tools.targets", Targets.BASALT).split(","));
  private static final long TOOL_TIMEOUT_SECONDS = 150;
  private static final Pattern PE_RATE = Pattern.compile("\\[ Avg TPS/QPS\\]\\s+(\\d+)");
  /** Log lines at ERROR/FATAL level, and stack traces. */
  private static final Pattern ERROR_LINE = Pattern.compile("(^|\\s)(ERROR|FATAL)\\s|Exception|^\\s+at [a-z]");

  @TempDir static Path dir;
  static final java.util.Map<String, Path> CONFS = new java.util.HashMap<>();

  @BeforeAll
  static void writeClientConfs() throws IOException {
    java.util.Set<String> targets = new java.util.LinkedHashSet<>(PE_TARGETS);
    targets.add(Targets.BASALT);
    for (String name : targets) {
      CONFS.put(name, writeClientConf(name));
    }
  }

  private static Path writeClientConf(String targetName) throws IOException {
    Configuration c = Targets.get(targetName).clientConfiguration();
    Path conf = Files.createDirectories(dir.resolve("conf-" + targetName));
    Files.writeString(conf.resolve("hbase-site.xml"), String.join("\n",
        "<?xml version=\"1.0\"?>",
        "<configuration>",
        "  <property><name>hbase.zookeeper.quorum</name><value>" + c.get("hbase.zookeeper.quorum") + "</value></property>",
        "  <property><name>hbase.zookeeper.property.clientPort</name><value>"
            + c.get("hbase.zookeeper.property.clientPort") + "</value></property>",
        "</configuration>", ""), StandardCharsets.UTF_8);
    // The tests jars on the tools classpath bring their own log4j2 config; this one, first on the classpath, wins.
    Files.writeString(conf.resolve("log4j2.properties"), String.join("\n",
        "status = warn",
        "appender.console.type = Console",
        "appender.console.name = console",
        "appender.console.layout.type = PatternLayout",
        "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{2}: %m%n",
        "rootLogger = INFO,console",
        "logger.zookeeper.name = org.apache.zookeeper",
        "logger.zookeeper.level = WARN",
        ""), StandardCharsets.UTF_8);
    return conf;
  }

  /** Runs a tool's main in a child JVM to completion; returns its exit code, its output in {@code log}. */
  private static int runTool(String target, String mainClass, List<String> args, Path log)
      throws IOException, InterruptedException {
    String classpath = CONFS.get(target) + File.pathSeparator + Processes.classpathFromBuild(TOOLS_CLASSPATH);
    Process p = Processes.startJava(List.of("-Xmx512m"), classpath, mainClass, args, log);
    try {
      if (!p.waitFor(TOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError(mainClass + " " + args + " did not finish in " + TOOL_TIMEOUT_SECONDS + " s; output "
            + log + ":\n" + Processes.tail(log, 80));
      }
      return p.exitValue();
    } finally {
      Processes.stop(p, 5_000);
    }
  }

  private static List<String> errorLines(Path log) throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      if (ERROR_LINE.matcher(line).find()) {
        out.add(line);
      }
    }
    return out;
  }

  private static Path logFor(String name) throws IOException {
    return Files.createDirectories(Processes.logDir()).resolve("tool-" + name + ".log");
  }

  /** In this order: the writes fill TestTable, which the reads, scans and read-modify-writes then use. */
  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> peRuns() {
    List<org.junit.jupiter.params.provider.Arguments> runs = new ArrayList<>();
    for (String command : List.of("sequentialWrite", "randomWrite", "randomRead", "scan", "scanRange100", "increment",
        "append", "checkAndMutate")) {
      for (String target : PE_TARGETS) {
        runs.add(org.junit.jupiter.params.provider.Arguments.of(command, target));
      }
    }
    return runs.stream();
  }

  @ParameterizedTest(name = "PerformanceEvaluation {0} on {1}")
  @org.junit.jupiter.params.provider.MethodSource("peRuns")
  void performanceEvaluation(String command, String target) throws Exception {
    Path log = logFor("pe-" + command + "-" + target);
    int exit = runTool(target, "org.apache.hadoop.hbase.PerformanceEvaluation",
        List.of("--nomapred", "--rows=" + PE_ROWS, "--valueSize=100", command, "1"), log);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(exit).as("PE %s exit code; output %s:%n%s", command, log, Processes.tail(log, 60)).isZero();
    assertThat(errorLines(log)).as("PE %s error lines; output %s", command, log).isEmpty();
    Matcher rate = PE_RATE.matcher(output);
    assertThat(rate.find()).as("PE %s printed no rate; output %s:%n%s", command, log, Processes.tail(log, 40)).isTrue();
    String line = String.format("PE %-15s %-6s %d rows, 1 thread: %s ops/s (PE's Avg TPS/QPS)%n", command, target, PE_ROWS,
        rate.group(1));
    System.out.print(line);
    Files.writeString(Processes.logDir().resolve("pe-summary.txt"), line, StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  @Test
  void loadTestToolWritesUpdatesAndVerifies() throws Exception {
    Path log = logFor("loadtesttool");
    // 2000 keys, 1-4 columns of 100-300 bytes each, 2 writer, 2 updater (increments, appends, checkAndMutate) and
    // 2 reader threads; the readers verify every key the writers and updaters report done.
    int exit = runTool(Targets.BASALT, "org.apache.hadoop.hbase.util.LoadTestTool",
        List.of("-tn", "loadtest", "-num_keys", "2000", "-write", "2:200:2", "-update", "50:2", "-read", "100:2"), log);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(exit).as("LoadTestTool exit code; output %s:%n%s", log, Processes.tail(log, 60)).isZero();
    assertThat(output).contains("Failed to write keys: 0").contains("Failed to update keys: 0");
    assertThat(errorLines(log)).as("LoadTestTool error lines; output %s", log).isEmpty();
  }
}
