package io.basalt.bench.elasticity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The elasticity benchmark end to end at toy sizes: a real cluster (two region server JVMs, then a third),
 * one split, one move under load, one balancer move. Checks that every CSV has rows, that the master's
 * step times and the probes' observations made it into them, and that the charts and summary were written.
 */
@Timeout(120)
class ElasticityBenchSmokeTest {
  @TempDir Path dir;

  @Test
  void quickPresetAtToySizesWritesEveryResult() throws Exception {
    ElasticityBench bench = new ElasticityBench();
    Path results = dir.resolve("results");
    int exit = new CommandLine(bench).execute("--quick", "--split-sizes-mb", "4", "--move-size-mb", "4", "--moves", "1",
        "--records", "2000", "--regions", "3", "--threads", "2", "--warmup-seconds", "3", "--growth-seconds", "14",
        "--balance-pause-ms", "500", "--server-heap-mb", "256", "--server-cache-mb", "32", "--results",
        results.toString(), "--data-dir", dir.resolve("data").toString());
    assertThat(exit).isZero();

    List<String> split = Files.readAllLines(results.resolve("split.csv"));
    assertThat(split).hasSize(2);
    assertThat(split.get(0)).startsWith("size_mb,rows,region_disk_mb,close_ms,clone_ms,openA_ms,openB_ms,publish_ms");
    assertThat(split.get(1)).startsWith("4,512,");

    List<String> move = Files.readAllLines(results.resolve("move.csv"));
    assertThat(move).hasSize(2);
    assertThat(move.get(1)).startsWith("1,");

    List<String> growth = Files.readAllLines(results.resolve("growth.csv"));
    assertThat(growth.size()).isGreaterThan(8);
    assertThat(growth.subList(1, growth.size())).anyMatch(line -> Long.parseLong(line.split(",")[2]) > 0);
    List<String> events = Files.readAllLines(results.resolve("growth-events.csv"));
    assertThat(events).anyMatch(line -> line.contains("third server started"));
    assertThat(events).anyMatch(line -> line.contains(",move "));

    for (String png : List.of("split.png", "move.png", "growth.png")) {
      assertThat(Files.size(results.resolve(png))).isGreaterThan(1_000);
    }
    assertThat(Files.readString(results.resolve("summary.md"))).contains("## Split", "## Move", "## Adding a server");
    assertThat(Files.list(dir.resolve("data")).toList()).isEmpty(); // the cluster's data was deleted
  }
}
