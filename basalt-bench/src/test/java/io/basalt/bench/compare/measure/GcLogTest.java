package io.basalt.bench.compare.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GcLogTest {
  @Test
  void countsEachZgcAllocationStallAsAPauseOfItsThread(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("gc.log");
    Files.writeString(log, String.join("\n",
        "[154.082s] Allocation Stall (regionserver-handler-7) 111.722ms",
        "[154.085s] Allocation Stall (regionserver-handler-28) 125.743ms",
        "[155.558s] GC(15) Garbage Collection (Allocation Stall) 1204M(59%)->1190M(58%)",
        ""));
    GcLog.Pauses p = GcLog.since(log, 0);
    assertThat(p.count()).isEqualTo(2);
    assertThat(p.totalMillis()).isCloseTo(111.722 + 125.743, within(1e-9));
    assertThat(p.maxMillis()).isEqualTo(125.743);
  }

  @Test
  void countsG1AndZgcPausesButNotConcurrentPhases(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("gc.log");
    Files.writeString(log, String.join("\n",
        "[0.354s] Using The Z Garbage Collector",
        "[2.815s] GC(0) Pause Mark Start 0.006ms",
        "[2.913s] GC(0) Concurrent Mark 97.876ms",
        "[2.913s] GC(0) Pause Mark End 0.009ms",
        "[3.100s] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 3.123ms",
        "[3.200s] GC(2) Concurrent Mark Cycle 12.500ms",
        "[3.300s] GC(2) Pause Remark 20M->20M(256M) 1.200ms",
        ""));
    GcLog.Pauses p = GcLog.since(log, 0);
    assertThat(p.count()).isEqualTo(4);
    assertThat(p.totalMillis()).isCloseTo(0.006 + 0.009 + 3.123 + 1.2, within(1e-9));
    assertThat(p.maxMillis()).isEqualTo(3.123);
    assertThat(p.endOffset()).isEqualTo(Files.size(log));

    Files.writeString(log, "[4.000s] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 30M->5M(256M) 7.000ms\n[4.1s] GC(4) Pause",
        java.nio.file.StandardOpenOption.APPEND);
    GcLog.Pauses next = GcLog.since(log, p.endOffset());
    assertThat(next.count()).as("only the new whole line").isEqualTo(1);
    assertThat(next.maxMillis()).isEqualTo(7.0);
  }
}
