package io.basalt.bench.compare.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThreadCpuTest {
  @Test
  void compilerAndCollectorThreadsAreToldFromTheServersOwn() {
    assertThat(ThreadCpu.isJit("C2 CompilerThre")).isTrue();
    assertThat(ThreadCpu.isJit("C1 CompilerThre")).isTrue();
    for (String gc : new String[] {"ZWorker#3", "ZDriver", "ZDirector", "ZStat", "ZUncommitter", "ZWorkerYoung#0",
        "GC Thread#1", "G1 Conc#0", "G1 Refine#0", "G1 Main Marker"}) {
      assertThat(ThreadCpu.isGc(gc)).as(gc).isTrue();
    }
    for (String own : new String[] {"regionserver-ha", "epollEventLoopG", "ZooKeeperServe", "RpcServer.defau",
        "Checkpointer", "VM Thread", "main"}) {
      assertThat(ThreadCpu.isJit(own) || ThreadCpu.isGc(own)).as(own).isFalse();
    }
  }

  @Test
  void aWindowOfThisJvmCountsItsCompilerAndCollectorThreads() {
    ThreadCpu start = ThreadCpu.of(ProcessHandle.current().pid());
    ThreadCpu window = ThreadCpu.of(ProcessHandle.current().pid()).since(start);
    assertThat(start.jitNanos()).isGreaterThanOrEqualTo(0);
    assertThat(start.gcNanos()).isGreaterThanOrEqualTo(0);
    assertThat(window.jitNanos()).isGreaterThanOrEqualTo(0);
    assertThat(ThreadCpu.of(Long.MAX_VALUE)).isEqualTo(new ThreadCpu(-1, -1));
    assertThat(new ThreadCpu(5, 5).since(new ThreadCpu(-1, -1))).isEqualTo(new ThreadCpu(-1, -1));
  }
}
