package io.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HandlerPoolTest {
  /** One call at a time goes to the handler that went idle last, so a light load keeps using one thread. */
  @Test
  void callsOneAfterAnotherRunOnTheSameHandler() throws Exception {
    try (HandlerPool pool = new HandlerPool("t", 8, 100)) {
      List<String> threads = new CopyOnWriteArrayList<>();
      for (int i = 0; i < 50; i++) {
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(() -> {
          threads.add(Thread.currentThread().getName());
          ran.countDown();
        });
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        awaitIdle(pool, 8);
      }
      assertThat(threads.subList(1, threads.size())).containsOnly(threads.get(1));
    }
  }

  /** With every handler busy, calls wait in the queue and run as handlers free up; past its capacity they are refused. */
  @Test
  void callsQueueWhileEveryHandlerIsBusyAndOverflowIsRefused() throws Exception {
    try (HandlerPool pool = new HandlerPool("t", 2, 3)) {
      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch started = new CountDownLatch(2);
      AtomicInteger done = new AtomicInteger();
      for (int i = 0; i < 2; i++) {
        pool.execute(() -> {
          started.countDown();
          await(release);
          done.incrementAndGet();
        });
      }
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      for (int i = 0; i < 3; i++) {
        pool.execute(done::incrementAndGet);
      }
      assertThatThrownBy(() -> pool.execute(done::incrementAndGet)).isInstanceOf(RejectedExecutionException.class);
      release.countDown();
      waitUntil(() -> done.get() == 5);
      assertThat(done).hasValue(5);
    }
  }

  /** Many callers at once: every call runs exactly once (no call stranded in the queue while handlers sleep). */
  @Test
  void concurrentCallersLoseNoCall() throws Exception {
    try (HandlerPool pool = new HandlerPool("t", 4, 100_000)) {
      int callers = 4;
      int perCaller = 20_000;
      CountDownLatch all = new CountDownLatch(callers * perCaller);
      Thread[] threads = new Thread[callers];
      for (int c = 0; c < callers; c++) {
        threads[c] = new Thread(() -> {
          for (int i = 0; i < perCaller; i++) {
            pool.execute(all::countDown);
          }
        });
        threads[c].start();
      }
      for (Thread t : threads) {
        t.join();
      }
      assertThat(all.await(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * Bursts onto an idle pool, each waited for before the next: a call queued while a handler was going idle must
   * still run once the burst is over (nothing else would come to take it).
   */
  @Test
  void noCallIsLeftInTheQueueWhenTheLoadStops() throws Exception {
    try (HandlerPool pool = new HandlerPool("t", 2, 1_000)) {
      for (int round = 0; round < 3_000; round++) {
        CountDownLatch burst = new CountDownLatch(6);
        Thread other = new Thread(() -> {
          for (int i = 0; i < 3; i++) {
            pool.execute(burst::countDown);
          }
        });
        other.start();
        for (int i = 0; i < 3; i++) {
          pool.execute(burst::countDown);
        }
        other.join();
        assertThat(burst.await(10, TimeUnit.SECONDS)).as("round %d", round).isTrue();
      }
    }
  }

  @Test
  void closeLetsQueuedCallsFinishThenRefuses() throws Exception {
    HandlerPool pool = new HandlerPool("t", 1, 10);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger done = new AtomicInteger();
    pool.execute(() -> {
      await(release);
      done.incrementAndGet();
    });
    pool.execute(done::incrementAndGet);
    pool.close();
    release.countDown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    assertThat(done).hasValue(2);
    assertThatThrownBy(() -> pool.execute(done::incrementAndGet)).isInstanceOf(RejectedExecutionException.class);
  }

  private static void awaitIdle(HandlerPool pool, int handlers) throws InterruptedException {
    waitUntil(() -> pool.idleCount() >= handlers);
    assertThat(pool.idleCount()).isEqualTo(handlers);
  }

  /** Polls for at most 10 s; the caller's assertion then says what was missing. */
  private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
