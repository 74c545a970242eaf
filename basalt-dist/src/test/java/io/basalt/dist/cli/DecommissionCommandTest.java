package io.basalt.dist.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code basalt decommission}, {@code recommission} and what {@code status} shows, against an in-process standalone. */
@Timeout(180)
class DecommissionCommandTest {
  @TempDir Path dir;
  private StandaloneServer server;
  private String zookeeper;
  private String regionServer;

  @BeforeEach
  void start() throws Exception {
    server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0).withInfoPort(-1));
    zookeeper = "127.0.0.1:" + server.zookeeperPort();
    regionServer = "127.0.0.1:" + server.regionServerAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.close();
  }

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
  void aServerIsDecommissionedShownAndRecommissionedThroughHBasesAdminApi() {
    String[] r = run("decommission", regionServer, "--no-offload", "--zookeeper", zookeeper);
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1]).contains("decommissioned " + regionServer + " (its regions stay)");

    r = run("status", "--zookeeper", zookeeper);
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1]).contains("region servers: 1 live, 0 dead, 1 decommissioned").contains("DECOMMISSIONED");

    r = run("recommission", regionServer, "--zookeeper", zookeeper);
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1]).contains("recommissioned " + regionServer);
    r = run("status", "--zookeeper", zookeeper);
    assertThat(r[1]).contains("region servers: 1 live, 0 dead\n").doesNotContain("DECOMMISSIONED");

    r = run("recommission", regionServer, "--zookeeper", zookeeper);
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].strip()).isEqualTo("basalt recommission: " + regionServer + " is not decommissioned (decommissioned: none)");
  }

  @Test
  void anUnknownServerOrANameThatIsNoServerIsAOneLineError() {
    String[] r = run("decommission", "127.0.0.1:1", "--zookeeper", zookeeper);
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].strip()).startsWith("basalt decommission: cannot decommission 127.0.0.1:1 through ZooKeeper")
        .contains("no region server is registered at 127.0.0.1:1");
    r = run("decommission", "not-a-server", "--zookeeper", zookeeper);
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].strip()).contains("'not-a-server' is not a region server: give HOST:PORT");
  }
}
