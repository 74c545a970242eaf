package io.basalt.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball on its own: unpacked into an empty directory (no source tree, no Maven), {@code bin/basalt
 * standalone} starts, /metrics and the web UI answer, {@code bin/basalt status} sees it, a second server on
 * the same data directory is refused, and SIGTERM to its PID stops it cleanly.
 */
@Timeout(400)
class DistributionIT {
  private static final Path TARBALL = Path.of(System.getProperty("basalt.dist.tarball", "target/missing.tar.gz"));
  private static final String VERSION = System.getProperty("basalt.dist.version", "?");

  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @AfterEach
  void killLeftovers() throws InterruptedException {
    for (Process p : started) {
      if (p.isAlive()) {
        p.destroyForcibly();
        p.waitFor(20, TimeUnit.SECONDS);
      }
    }
  }

  private Path unpack() throws Exception {
    assertThat(TARBALL).as("built by mvn package").exists();
    Process tar = new ProcessBuilder("tar", "xzf", TARBALL.toString(), "-C", dir.toString()).inheritIO().start();
    assertThat(tar.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(tar.exitValue()).isZero();
    Path home = dir.resolve("basalt-" + VERSION);
    for (String entry : List.of("bin/basalt", "conf/basalt-site.xml", "conf/logback.xml", "LICENSE", "README.md",
        "docs/operations.md", "lib")) {
      assertThat(home.resolve(entry)).exists();
    }
    assertThat(Files.isExecutable(home.resolve("bin/basalt"))).isTrue();
    return home;
  }

  private Process basalt(Path home, Path log, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/basalt").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    pb.environment().put("BASALT_HEAP", "384m");
    Process p = pb.start();
    started.add(p);
    return p;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private String get(String url) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url).isEqualTo(200);
    return r.body();
  }

  private static String run(Process p, Path log, int seconds) throws Exception {
    assertThat(p.waitFor(seconds, TimeUnit.SECONDS)).as("finished within " + seconds + " s").isTrue();
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  @Test
  void standaloneRunsFromTheTarballAlone() throws Exception {
    Path home = unpack();
    int zk = freePort();
    int info = freePort();
    Path data = dir.resolve("data");
    Path serverLog = dir.resolve("standalone.out");
    Process server = basalt(home, serverLog, "standalone", "--data-dir", data.toString(),
        "-Dhbase.zookeeper.property.clientPort=" + zk, "-Dhbase.master.port=0", "-Dhbase.regionserver.port=0",
        "-Dhbase.master.info.port=" + info);

    String metrics = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (metrics == null && System.nanoTime() < deadline) {
      assertThat(server.isAlive()).as("server running; its output: %s", Files.readString(serverLog)).isTrue();
      try {
        metrics = get("http://127.0.0.1:" + info + "/metrics");
      } catch (IOException notYet) {
        Thread.sleep(250);
      }
    }
    assertThat(metrics).as("/metrics answered within 180 s").isNotNull();
    assertThat(metrics).contains("basalt_regions", "basalt_storage_cache_bytes", "jvm_memory_used_bytes",
        "basalt_master_active 1");
    String page = get("http://127.0.0.1:" + info + "/");
    assertThat(page).contains("<h1>Cluster</h1>", "1 live of 1");
    assertThat(get("http://127.0.0.1:" + info + "/rs")).contains("Cache hit ratio");

    // A table with three regions, created through the HBase client as any application would.
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zk);
    conf.setInt("hbase.client.retries.number", 5);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("from_tarball"))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("cf")).build(), new byte[][] {Bytes.toBytes("h"), Bytes.toBytes("p")});
    }
    assertThat(get("http://127.0.0.1:" + info + "/table?name=from_tarball")).contains("<h1>Table from_tarball</h1>");

    Path statusLog = dir.resolve("status.out");
    String status = run(basalt(home, statusLog, "status", "--zookeeper", "127.0.0.1:" + zk), statusLog, 120);
    assertThat(status).contains("region servers: 1 live, 0 dead", "tables: 1").containsPattern("127\\.0\\.0\\.1,\\d+,\\d+ +regions +3")
        .containsPattern("from_tarball +ENABLED +regions +3");

    // The Thrift 1 gateway from the tarball, in front of the server: it lists the table to a Thrift client.
    int thriftPort = freePort();
    Path thriftLog = dir.resolve("thrift.out");
    Process thrift = basalt(home, thriftLog, "thrift", "--zookeeper", "127.0.0.1:" + zk, "-p",
        Integer.toString(thriftPort), "--infoport", "-1");
    try {
      List<java.nio.ByteBuffer> tables = null;
      long thriftDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (tables == null && System.nanoTime() < thriftDeadline) {
        assertThat(thrift.isAlive()).as("gateway running; its output: %s", Files.readString(thriftLog)).isTrue();
        try (org.apache.thrift.transport.TSocket socket = new org.apache.thrift.transport.TSocket("127.0.0.1",
            thriftPort, 30_000)) {
          socket.open();
          tables = new io.basalt.gateway.thrift.generated.Hbase.Client(
              new org.apache.thrift.protocol.TBinaryProtocol(socket)).getTableNames();
        } catch (org.apache.thrift.transport.TTransportException notYet) {
          Thread.sleep(250);
        }
      }
      assertThat(tables).as("Thrift gateway answered within 120 s").isNotNull()
          .containsExactly(java.nio.ByteBuffer.wrap(Bytes.toBytes("from_tarball")));
      // happybase (the venv the build made) through the tarball's gateway: every answer checked by the program.
      Path happybaseLog = dir.resolve("happybase.out");
      Process happybase = new ProcessBuilder(System.getProperty("basalt.dist.python"),
          System.getProperty("basalt.dist.happybaseCheck"), "127.0.0.1", Integer.toString(thriftPort), "buffered",
          "binary").redirectErrorStream(true).redirectOutput(happybaseLog.toFile()).start();
      String checked = run(happybase, happybaseLog, 120);
      assertThat(happybase.exitValue()).as("happybase program: %s", checked).isZero();
      assertThat(checked).startsWith("OK ");
    } finally {
      new ProcessBuilder("kill", "-TERM", Long.toString(thrift.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
      assertThat(thrift.waitFor(30, TimeUnit.SECONDS)).as("gateway stopped within 30 s of SIGTERM").isTrue();
    }

    // The REST gateway from the tarball: a cell written and read back with plain HTTP, as curl would.
    int restPort = freePort();
    Path restLog = dir.resolve("rest.out");
    Process rest = basalt(home, restLog, "rest", "--zookeeper", "127.0.0.1:" + zk, "-p", Integer.toString(restPort),
        "--infoport", "-1");
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      String base = "http://127.0.0.1:" + restPort;
      HttpResponse<String> tables = null;
      long restDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (tables == null && System.nanoTime() < restDeadline) {
        assertThat(rest.isAlive()).as("REST gateway running; its output: %s", Files.readString(restLog)).isTrue();
        try {
          tables = http.send(HttpRequest.newBuilder(URI.create(base + "/")).header("Accept", "application/json")
              .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException notYet) {
          Thread.sleep(250);
        }
      }
      assertThat(tables).as("REST gateway answered within 120 s").isNotNull();
      assertThat(tables.statusCode()).isEqualTo(200);
      assertThat(tables.body()).startsWith("{\"table\":[").contains("{\"name\":\"from_tarball\"}");
      HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(base + "/from_tarball/k/cf:q"))
          .header("Content-Type", "application/octet-stream").timeout(Duration.ofSeconds(30))
          .PUT(HttpRequest.BodyPublishers.ofString("via rest")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
      HttpResponse<String> read = http.send(HttpRequest.newBuilder(URI.create(base + "/from_tarball/k/cf:q"))
          .header("Accept", "application/octet-stream").timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(read.body()).isEqualTo("via rest");
    } finally {
      new ProcessBuilder("kill", "-TERM", Long.toString(rest.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
      assertThat(rest.waitFor(30, TimeUnit.SECONDS)).as("REST gateway stopped within 30 s of SIGTERM").isTrue();
    }

    // The shell from the tarball: a script of HBase shell commands, its output in HBase's format.
    Path script = dir.resolve("shell-check.rb");
    Files.writeString(script, "create 'shelled', 'f'\nput 'shelled', 'r1', 'f:q', 'via shell'\nscan 'shelled'\n");
    Path shellLog = dir.resolve("shell.out");
    String shellOut = run(basalt(home, shellLog, "shell", "--zookeeper", "127.0.0.1:" + zk, script.toString()),
        shellLog, 120);
    assertThat(shellOut).as(shellOut).contains("Created table shelled\n")
        .containsPattern("ROW +COLUMN\\+CELL\n r1 +column=f:q, timestamp=[^,]+, value=via shell\n1 row\\(s\\)\n");

    // A second server on the same data directory is refused in one line, naming the running one's PID.
    Path secondLog = dir.resolve("second.out");
    Process second = basalt(home, secondLog, "standalone", "--data-dir", data.toString());
    String refused = run(second, secondLog, 120);
    assertThat(second.exitValue()).isEqualTo(2);
    assertThat(refused.strip()).startsWith("basalt standalone: data directory ")
        .contains("is in use by another running Basalt process (pid " + server.pid() + ")").doesNotContain("\n");

    // Stopped by its PID (the launcher execs java, so the PID is the server's).
    Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(server.pid())).inheritIO().start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("stopped within 60 s of SIGTERM").isTrue();

    // Structured logs: one line per event with time, level and component, in a file under logs/.
    List<String> lines = Files.readAllLines(home.resolve("logs/basalt-standalone.log"));
    assertThat(lines).isNotEmpty().allMatch(l -> l.matches(
        "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z (TRACE|DEBUG|INFO |WARN |ERROR) \\S+ \\[[^]]+] .*"));
    assertThat(lines).anyMatch(l -> l.contains("StandaloneServer") && l.contains("Basalt standalone ready"));
  }

  @Test
  void refusesADataDirectoryOfAnotherFormatAndBadSettings() throws Exception {
    Path home = unpack();
    Path data = Files.createDirectories(dir.resolve("newer"));
    Files.writeString(data.resolve("basalt-format"), "2\n");
    Path log = dir.resolve("format.out");
    Process p = basalt(home, log, "standalone", "--data-dir", data.toString(), "-Dhbase.master.info.port=-1");
    String out = run(p, log, 120);
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(out.strip()).contains("holds on-disk format 2, this Basalt reads format 1").doesNotContain("\n");

    Path badLog = dir.resolve("bad.out");
    Process bad = basalt(home, badLog, "standalone", "-Dhbase.regionserver.port=70000");
    assertThat(run(bad, badLog, 120).strip())
        .isEqualTo("basalt standalone: hbase.regionserver.port: '70000' is not a port number");
    assertThat(bad.exitValue()).isEqualTo(2);

    Path listLog = dir.resolve("list.out");
    Process list = basalt(home, listLog, "config", "list");
    String listing = run(list, listLog, 120);
    assertThat(list.exitValue()).isZero();
    assertThat(listing).contains("hbase.zookeeper.quorum  (string, default 127.0.0.1)",
        "hbase.master.info.port  (port or -1, default 16010)");
  }
}
