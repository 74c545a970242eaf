package io.basalt.bench.compare.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.bench.compare.measure.Figures;
import io.basalt.bench.compare.measure.RunFigures;
import io.basalt.bench.report.MachineCpu;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ReportTest {
  private static RunFigures run(long ops, double seconds, long latencyNanos, long cpuNanos) {
    Histogram h = new Histogram(3);
    h.recordValueWithCount(latencyNanos, ops);
    return new RunFigures(ops, 0, (long) (seconds * 1e9), h, cpuNanos, 100L << 20, ops * 1000, ops * 10, 2.0, 1.5,
        cpuNanos / 5, cpuNanos / 10, cpuNanos / 2, new MachineCpu((long) (seconds * 150), (long) (seconds * 200)));
  }

  @Test
  void figuresSumTheAlternatingRunsAndMergeTheirLatencies() {
    Figures f = Figures.of(List.of(run(1000, 1, 1_000_000, 500_000_000L), run(3000, 1, 3_000_000, 500_000_000L)));
    assertThat(f.opsPerSecond()).isEqualTo(2000);
    assertThat(f.p50Micros()).isBetween(2990.0, 3010.0);
    assertThat(f.cpuSecondsPer1000Ops()).isEqualTo(0.25);
    assertThat(f.diskBytesPerOp()).isEqualTo(1000);
    assertThat(f.diskReadBytesPerOp()).isEqualTo(10);
    assertThat(f.gcPauseTotalMillis()).isEqualTo(4.0);
    assertThat(f.gcPauseMaxMillis()).isEqualTo(1.5);
    assertThat(f.runs()).isEqualTo(2);
    assertThat(f.clientCpuSecondsPer1000Ops()).isEqualTo(0.125);
    assertThat(f.machineBusyPercent()).isEqualTo(75.0);
    assertThat(f.jitPercent()).isEqualTo(20.0);
    assertThat(f.gcThreadPercent()).isEqualTo(10.0);
  }

  @Test
  void tablesCarryBothTargetsAndTheRatio() {
    Map<String, Figures> byTarget = new LinkedHashMap<>();
    byTarget.put(Report.BASALT, Figures.of(List.of(run(3000, 1, 1_000_000, 1))));
    byTarget.put(Report.HBASE, Figures.of(List.of(run(1000, 1, 2_000_000, 1))));
    String md = Report.markdown(List.of("# title"), List.of(new Report.Row("randomRead 1t", "pe", byTarget)),
        List.of(Report.BASALT, Report.HBASE));
    String row = md.lines().filter(l -> l.startsWith("| randomRead 1t")).findFirst().orElseThrow();
    assertThat(row).contains("3,000").contains("1,000").contains("3.00x").contains("0.50x");
    assertThat(md).contains("## Ratio Basalt / HBase of every figure");
  }

  @Test
  void serverFiguresOfARunningClusterAreBlank() {
    Histogram h = new Histogram(3);
    h.recordValue(1000);
    Figures f = Figures.of(List.of(new RunFigures(1, 0, 1_000_000_000L, h, -1, -1, -1, -1, 0, 0, -1, -1, -1,
        new MachineCpu(0, 0))));
    assertThat(f.cpuSecondsPer1000Ops()).isNaN();
    assertThat(f.clientCpuSecondsPer1000Ops()).isNaN();
    assertThat(f.machineBusyPercent()).isNaN();
    assertThat(f.jitPercent()).isNaN();
    assertThat(Report.number(f.residentMb())).isEqualTo("-");
  }

  @Test
  void csvRatioLinesLineUpWithTheHeader() {
    Map<String, Figures> byTarget = new LinkedHashMap<>();
    byTarget.put(Report.BASALT, Figures.of(List.of(run(3000, 1, 1_000_000, 1))));
    byTarget.put(Report.HBASE, Figures.of(List.of(run(1000, 1, 2_000_000, 1))));
    List<String> lines = Csv.of(List.of(new Report.Row("randomRead 1t", "pe", byTarget)),
        List.of(Report.BASALT, Report.HBASE)).lines().toList();
    List<String> header = List.of(lines.get(0).split(","));
    String[] ratio = lines.get(3).split(",", -1);
    assertThat(ratio).hasSize(header.size());
    assertThat(ratio[header.indexOf("target")]).isEqualTo("basalt/hbase");
    assertThat(ratio[header.indexOf("ops_per_s")]).isEqualTo("3.0000");
    assertThat(ratio[header.indexOf("p50_us")]).isEqualTo("0.5000");
  }

  @Test
  void aReplicatedClusterIsComparedWithRf1AndWithHBase() {
    Map<String, Figures> byTarget = new LinkedHashMap<>();
    byTarget.put("basalt-rf3", Figures.of(List.of(run(1500, 1, 4_000_000, 1))));
    byTarget.put(Report.BASALT, Figures.of(List.of(run(3000, 1, 1_000_000, 1))));
    byTarget.put(Report.HBASE, Figures.of(List.of(run(1000, 1, 2_000_000, 1))));
    List<String> targets = List.of("basalt-rf3", Report.BASALT, Report.HBASE);
    List<Report.Row> rows = List.of(new Report.Row("randomRead 1t", "pe", byTarget));
    String md = Report.markdown(List.of("# title"), rows, targets);
    String header = md.lines().filter(l -> l.startsWith("| workload") && l.contains("RF=3/RF=1")).findFirst()
        .orElseThrow();
    assertThat(header).contains("RF=3/HBase").contains("RF=1/HBase").contains("p99 RF=3/RF=1");
    String row = md.lines().filter(l -> l.startsWith("| randomRead 1t")).findFirst().orElseThrow();
    // ops/s: RF=3/RF=1 0.50x, RF=3/HBase 1.50x, RF=1/HBase 3.00x; p99: 4.00x, 2.00x, 0.50x
    assertThat(row).contains("0.50x").contains("1.50x").contains("3.00x").contains("4.00x").contains("2.00x");
    assertThat(md).contains("## Ratio Basalt RF=3 / Basalt RF=1 of every figure")
        .contains("## Ratio Basalt RF=3 / HBase of every figure")
        .contains("## Ratio Basalt RF=1 / HBase of every figure");
    List<String> csv = Csv.of(rows, targets).lines().toList();
    assertThat(csv).hasSize(1 + 3 + 3);
    assertThat(csv.get(4)).contains(",basalt-rf3/basalt,").contains(",0.5000,");
    assertThat(csv.get(5)).contains(",basalt-rf3/hbase,");
    assertThat(csv.get(6)).contains(",basalt/hbase,");
  }
}
