package io.basalt.dist.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BasaltCliTest {
  @TempDir Path dir;

  private static String[] run(String... args) {
    CommandLine cl = BasaltCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  @Test
  void everyCommandHasHelp() {
    for (String command : List.of("standalone", "master", "regionserver", "zookeeper", "thrift", "rest", "status",
        "decommission", "recommission", "config", "version", "demo", "storage-bench")) {
      String[] r = run(command, "--help");
      assertThat(r[0]).as(command).isEqualTo("0");
      assertThat(r[1]).as(command).startsWith("Usage: basalt " + command);
    }
  }

  @Test
  void badArgumentsAreOneLineErrors() {
    String[] r = run("standalone", "--nope");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].strip()).isEqualTo("basalt standalone: Unknown option: '--nope' (see basalt standalone --help)");
    r = run("master", "-Dhbase.master.port=x");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].strip()).isEqualTo("basalt master: hbase.master.port: 'x' is not a port number");
    r = run("frobnicate");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].strip()).startsWith("basalt: Unmatched argument at index 0: 'frobnicate'");
  }

  @Test
  void explicitOptionsWinOverTheConfiguration() {
    RegionServerCommand rs = new RegionServerCommand();
    CommandLine cl = new CommandLine(rs);
    cl.parseArgs("-Dhbase.zookeeper.quorum=zk1,zk2", "-Dbasalt.storage.cache.size=1g", "--port", "17020",
        "-Dhbase.regionserver.port=18020", "-Dhbase.hregion.max.filesize=64m");
    assertThat(rs.args()).containsSubsequence("--zookeeper", "zk1:2181,zk2:2181").containsSubsequence("--port", "17020")
        .containsSubsequence("--cache-mb", "1024").containsSubsequence("--split-size-mb", "64")
        .containsSubsequence("--info-port", "16030");
  }

  @Test
  void scannerAndWarmUpSettingsReachTheRegionServer() {
    RegionServerCommand rs = new RegionServerCommand();
    new CommandLine(rs).parseArgs("-Dhbase.client.scanner.timeout.period=5000", "-Dbasalt.storage.warmup.rounds=0",
        "--hbase.server.scanner.max.result.size", "1048576");
    assertThat(rs.args()).containsSubsequence("--hbase.client.scanner.timeout.period", "5000")
        .containsSubsequence("--basalt.storage.warmup.rounds", "0")
        .containsSubsequence("--hbase.server.scanner.max.result.size", "1048576");
    assertThat(rs.args().stream().filter("--hbase.server.scanner.max.result.size"::equals)).hasSize(1);
  }

  @Test
  void handlerCountsAndTheRequestLimitReachBothLaunchers() {
    RegionServerCommand rs = new RegionServerCommand();
    new CommandLine(rs).parseArgs("-Dhbase.regionserver.handler.count=64", "-Dhbase.ipc.max.request.size=16m");
    assertThat(rs.args()).containsSubsequence("--hbase.regionserver.handler.count", "64")
        .containsSubsequence("--hbase.ipc.max.request.size", "16777216");
    MasterCommand master = new MasterCommand();
    new CommandLine(master).parseArgs("-Dhbase.master.handler.count=8", "-Dhbase.ipc.max.request.size=16m");
    assertThat(master.args()).containsSubsequence("--hbase.master.handler.count", "8")
        .containsSubsequence("--hbase.ipc.max.request.size", "16777216");
  }

  @Test
  void bothLaunchersKeepToTheConfiguredZnodes() {
    String[] znodes = {"-Dzookeeper.znode.parent=/hbase-other", "-Dbasalt.zookeeper.root=/basalt-other"};
    RegionServerCommand rs = new RegionServerCommand();
    new CommandLine(rs).parseArgs(znodes);
    MasterCommand master = new MasterCommand();
    new CommandLine(master).parseArgs(znodes);
    for (List<String> args : List.of(rs.args(), master.args())) {
      assertThat(args).containsSubsequence("--zookeeper.znode.parent", "/hbase-other")
          .containsSubsequence("--basalt.zookeeper.root", "/basalt-other");
    }
  }

  @Test
  void securitySettingsReachTheLaunchers() {
    RegionServerCommand rs = new RegionServerCommand();
    new CommandLine(rs).parseArgs("-Dbasalt.cluster.secret.file=/etc/basalt/cluster.secret",
        "-Dhbase.server.netty.tls.enabled=true", "-Dhbase.rpc.tls.keystore.location=/etc/basalt/rs.p12");
    assertThat(rs.args()).containsSubsequence("--basalt.cluster.secret.file", "/etc/basalt/cluster.secret")
        .containsSubsequence("--hbase.server.netty.tls.enabled", "true")
        .containsSubsequence("--hbase.rpc.tls.keystore.location", "/etc/basalt/rs.p12")
        .doesNotContain("--hbase.rpc.tls.truststore.location");
    MasterCommand master = new MasterCommand();
    new CommandLine(master).parseArgs("-Dbasalt.cluster.secret.file=/etc/basalt/cluster.secret");
    assertThat(master.args()).containsSubsequence("--basalt.cluster.secret.file", "/etc/basalt/cluster.secret");
  }

  @Test
  void aDataDirectoryIsClaimedOnceAndItsFormatChecked() throws Exception {
    Path data = dir.resolve("data");
    DataDirGuard.claim(data, "--data-dir", true);
    assertThat(Files.readString(data.resolve("basalt-format")).trim()).isEqualTo("1");
    assertThat(Files.readString(data.resolve("basalt.lock")).trim()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
    assertThatThrownBy(() -> DataDirGuard.claim(data, "--data-dir", true)).isInstanceOf(CliFailure.class)
        .hasMessageContaining("is in use by another running Basalt process (pid " + ProcessHandle.current().pid() + ")");

    Path old = Files.createDirectories(dir.resolve("old"));
    Files.writeString(old.resolve("basalt-format"), "0\n");
    assertThatThrownBy(() -> DataDirGuard.claim(old, "--data-dir", true))
        .hasMessageContaining("holds on-disk format 0, this Basalt reads format 1");
  }
}
