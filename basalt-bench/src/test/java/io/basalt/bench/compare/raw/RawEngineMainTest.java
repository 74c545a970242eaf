package io.basalt.bench.compare.raw;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The raw engine runner at toy sizes, in process: every selected PE workload runs and reports its operations. */
class RawEngineMainTest {
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void runsEachSelectedPeWorkloadAgainstTheEngine(@TempDir Path temp) throws Exception {
    Path results = temp.resolve("raw.tsv");
    RawEngineMain.main(new String[] {temp.resolve("data").toString(), results.toString(), "4", "0.3", "1", "2",
        "3000", "sequentialWrite,scanRange100,randomRead"});
    Map<String, String[]> lines = Files.readAllLines(results, StandardCharsets.UTF_8).stream()
        .map(l -> l.split("\t")).collect(Collectors.toMap(f -> f[0], f -> f));
    assertThat(lines.keySet()).containsExactlyInAnyOrder("sequentialWrite 1t autoflush", "sequentialWrite 2t autoflush",
        "sequentialWrite 1t buffered", "sequentialWrite 2t buffered", "randomRead (data in cache) 1t",
        "randomRead (data in cache) 2t", "randomRead (data 4x cache) 1t", "randomRead (data 4x cache) 2t",
        "scanRange100 1t", "scanRange100 2t");
    for (String[] f : lines.values()) {
      assertThat(Long.parseLong(f[1])).as("operations of %s", f[0]).isPositive();
      assertThat(Long.parseLong(f[2])).as("time of %s", f[0]).isPositive();
    }
    // A write run stops at its share of the key space: 3000 rows over the threads, buffered puts flushed.
    assertThat(Long.parseLong(lines.get("sequentialWrite 2t buffered")[1])).isLessThanOrEqualTo(3000);
  }
}
