package io.basalt.bench.compare.report;

import io.basalt.bench.compare.measure.Figures;
import java.util.List;
import java.util.Locale;

/**
 * The results as CSV: one line per workload and target with every figure, plus one line per ratio the report
 * makes (target column "basalt/hbase", "basalt-rf3/basalt", "basalt-rf3/hbase").
 */
public final class Csv {
  private Csv() {}

  public static String of(List<Report.Row> rows, List<String> targets) {
    StringBuilder csv = new StringBuilder("workload,group,target,runs,ops,errors,seconds,ops_per_s,p50_us,p95_us,"
        + "p99_us,p999_us,cpu_s_per_1000_ops,memory_pss_mb,disk_bytes_per_op,gc_pause_total_ms,gc_pause_max_ms,"
        + "disk_read_bytes_per_op,client_cpu_s_per_1000_ops,machine_busy_pct,server_jit_pct,"
        + "server_gc_thread_pct\n");
    for (Report.Row r : rows) {
      for (String t : targets) {
        Figures f = r.of(t);
        csv.append(quote(r.id())).append(',').append(r.group()).append(',').append(t).append(',').append(f.runs())
            .append(',').append(f.ops()).append(',').append(f.errors()).append(',').append(num(f.seconds()));
        for (double v : new double[] {f.opsPerSecond(), f.p50Micros(), f.p95Micros(), f.p99Micros(), f.p999Micros(),
            f.cpuSecondsPer1000Ops(), f.residentMb(), f.diskBytesPerOp(), f.gcPauseTotalMillis(),
            f.gcPauseMaxMillis(), f.diskReadBytesPerOp(), f.clientCpuSecondsPer1000Ops(), f.machineBusyPercent(),
            f.jitPercent(), f.gcThreadPercent()}) {
          csv.append(',').append(num(v));
        }
        csv.append('\n');
      }
      for (Report.Ratio ratio : Report.ratios(targets)) {
        if (!r.has(ratio)) {
          continue;
        }
        csv.append(quote(r.id())).append(',').append(r.group()).append(',').append(ratio.key()).append(",,,");
        for (java.util.function.ToDoubleFunction<Figures> g : List.<java.util.function.ToDoubleFunction<Figures>>of(
            Figures::seconds, Figures::opsPerSecond, Figures::p50Micros, Figures::p95Micros, Figures::p99Micros,
            Figures::p999Micros, Figures::cpuSecondsPer1000Ops, Figures::residentMb, Figures::diskBytesPerOp,
            Figures::gcPauseTotalMillis, Figures::gcPauseMaxMillis, Figures::diskReadBytesPerOp,
            Figures::clientCpuSecondsPer1000Ops, Figures::machineBusyPercent, Figures::jitPercent,
            Figures::gcThreadPercent)) {
          csv.append(',').append(num(Report.ratioValue(r, ratio, g)));
        }
        csv.append('\n');
      }
    }
    return csv.toString();
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
  }

  private static String quote(String s) {
    return '"' + s.replace("\"", "\"\"") + '"';
  }
}
