package io.basalt.bench.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The replication resource measurement end to end at toy sizes: a real cluster (ZooKeeper, a master with
 * replication factor 3 and three region server JVMs), measured idle without tables and with 4 members per
 * server. Checks that every server then holds its 4 members, each listening on a port of the server's own
 * replication block, that the figures and the per-member cost made it into the CSV and the summary, and that
 * every process it started is gone and its data deleted.
 */
@Timeout(150)
class ReplicationResourcesSmokeTest {
  @TempDir Path dir;

  @Test
  void measuresAnIdleClusterAndFourMembersPerServer() throws Exception {
    ReplicationResources tool = new ReplicationResources();
    Path results = dir.resolve("results");
    int exit = new CommandLine(tool).execute("--steps", "0,4", "--settle-seconds", "2", "--window-seconds", "4",
        "--server-heap-mb", "256", "--server-cache-mb", "32", "--master-heap-mb", "256", "--stop-seconds", "20",
        "--results", results.toString(), "--data-dir", dir.resolve("data").toString());
    assertThat(exit).isZero();

    List<String> csv = Files.readAllLines(results.resolve("resources.csv"));
    assertThat(csv.get(0)).startsWith("members_per_server,server,pid,alive,members_on_disk,threads,listen_ports,"
        + "replication_ports_listening,tcp_established,fds,rss_mb,pss_mb,cpu_percent_idle");
    assertThat(csv).hasSize(1 + 2 * 3);
    List<String[]> idle = csv.subList(1, 4).stream().map(l -> l.split(",", -1)).toList();
    List<String[]> four = csv.subList(4, 7).stream().map(l -> l.split(",", -1)).toList();
    for (int i = 0; i < 3; i++) {
      String[] before = idle.get(i);
      String[] after = four.get(i);
      assertThat(before[0]).isEqualTo("0");
      assertThat(before[4]).isEqualTo("0");
      assertThat(before[7]).isEqualTo("0");
      assertThat(after[0]).isEqualTo("4");
      assertThat(after[3]).isEqualTo("true");
      assertThat(after[4]).as("members on disk").isEqualTo("4");
      assertThat(after[7]).as("replication ports listening").isEqualTo("4");
      assertThat(Integer.parseInt(after[5])).as("threads").isGreaterThan(Integer.parseInt(before[5]));
      assertThat(Integer.parseInt(after[6])).as("listen ports").isEqualTo(Integer.parseInt(before[6]) + 4);
      assertThat(Double.parseDouble(after[10])).as("RSS MB").isPositive();
      assertThat(Double.parseDouble(after[11])).as("PSS MB").isPositive();
      assertThat(after[12]).as("CPU").isNotEmpty();
      long pid = Long.parseLong(after[2]);
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("region server " + pid + " stopped")
          .isFalse();
    }
    assertThat(Files.readAllLines(results.resolve("threads.csv"))).hasSizeGreaterThan(10);
    assertThat(Files.readString(results.resolve("summary.md"))).contains(
        "| members per server | threads | listen ports | fds | RSS MB | PSS MB | CPU % idle | create time",
        "## Cost per member", "| 0.0 → 4.0 |");
    assertThat(Files.list(results.resolve("logs")).toList()).hasSize(5);
    assertThat(Files.list(dir.resolve("data")).toList()).isEmpty(); // the cluster's data was deleted
  }
}
