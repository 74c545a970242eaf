package io.basalt.bench.compare.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.bench.compare.Plan;
import io.basalt.bench.compare.WorkloadSet;
import io.basalt.bench.compare.workload.Workload;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SustainedReportTest {
  @Test
  void keepsWholeIntervalsAndStallsButNotTheTailOfARunThatEndedEarly() {
    // 4 whole intervals of 10 s, then the partial one and the late slot.
    assertThat(SustainedReport.fullIntervals(new long[] {100, 0, 300, 400, 50, 7}, 10))
        .containsExactly(10, 0, 30, 40);
    // Ended after two intervals: the empty ones after the last put are not intervals of the run.
    assertThat(SustainedReport.fullIntervals(new long[] {100, 200, 0, 0, 0, 0}, 10)).containsExactly(10, 20);
  }

  @Test
  void reportsEachTargetsRunsAndTheRatioOfMeans(@TempDir Path dir) throws Exception {
    String md = SustainedReport.write(dir, Map.of("sustainedWrite (10x cache) 8t buffered", Map.of(
        Report.BASALT, List.of(new long[] {2000, 2000, 10, 0}),
        Report.HBASE, List.of(new long[] {1000, 1000, 0, 0}))));
    assertThat(md).contains("| basalt |").contains("| hbase  |").contains("Mean puts/s Basalt / HBase: 2.00x.");
    assertThat(dir.resolve("sustained-throughput.png")).isNotEmptyFile();
    assertThat(dir.resolve("sustained.csv")).content().contains("\"sustainedWrite (10x cache) 8t buffered\",basalt,1,10,200.0");
  }

  @Test
  void theSustainedWorkloadRunsOnlyWhenNamed() {
    Plan plan = Plan.quick();
    assertThat(WorkloadSet.of(plan, null)).noneMatch(w -> w.group().equals("sustained"));
    List<Workload> named = WorkloadSet.of(plan, "sustained");
    assertThat(named).hasSize(1);
    assertThat(named.get(0).runTime(plan.runTime())).isEqualTo(plan.sustainedTime());
    assertThat(named.get(0).threads()).isEqualTo(plan.threads());
  }
}
