package io.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedWorkTest {
  @Test
  void everyTaskRunsOnceAndHelpersTakeSome() throws Exception {
    ExecutorService helpers = Executors.newFixedThreadPool(2);
    try {
      int[] runs = new int[20];
      Set<String> threads = ConcurrentHashMap.newKeySet();
      CountDownLatch helperStarted = new CountDownLatch(1);
      Runnable[] tasks = new Runnable[runs.length];
      for (int i = 0; i < tasks.length; i++) {
        int at = i;
        tasks[i] = () -> {
          runs[at]++;
          threads.add(Thread.currentThread().getName());
          if (Thread.currentThread().getName().startsWith("pool")) {
            helperStarted.countDown();
          } else {
            await(helperStarted); // a caller's task waits until a helper has taken one: it cannot take them all
          }
        };
      }
      SharedWork.runAll(tasks, helpers, 2);
      assertThat(runs).containsOnly(1);
      assertThat(threads).anyMatch(n -> n.startsWith("pool"));
    } finally {
      helpers.shutdownNow();
    }
  }

  /** Helpers busy elsewhere (or none at all) delay nothing: the caller runs every task itself. */
  @Test
  void theCallerRunsEverythingWhenNoHelperStarts() {
    AtomicInteger ran = new AtomicInteger();
    Runnable[] tasks = {ran::incrementAndGet, ran::incrementAndGet, ran::incrementAndGet};
    SharedWork.runAll(tasks, r -> {}, 2); // an executor that never runs what it is given
    assertThat(ran).hasValue(3);
  }

  @Test
  void aFailureIsRethrownAfterTheOtherTasksEnded() {
    ExecutorService helpers = Executors.newSingleThreadExecutor();
    try {
      AtomicInteger ran = new AtomicInteger();
      Runnable[] tasks = {() -> {
        throw new IllegalStateException("task 0");
      }, ran::incrementAndGet, ran::incrementAndGet};
      assertThatThrownBy(() -> SharedWork.runAll(tasks, helpers, 1)).hasMessage("task 0");
      assertThat(ran).hasValue(2);
    } finally {
      helpers.shutdownNow();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
