package io.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class NoncesTest {
  private final Nonces nonces = new Nonces();

  @Test
  void aRetryGetsTheFirstAnswerWithoutRunningAgain() throws IOException {
    AtomicInteger runs = new AtomicInteger();
    assertThat(nonces.once(1, 42, runs::incrementAndGet)).isEqualTo(1);
    assertThat(nonces.once(1, 42, runs::incrementAndGet)).isEqualTo(1);
    assertThat(nonces.once(2, 42, runs::incrementAndGet)).as("another client's nonce group").isEqualTo(2);
    assertThat(nonces.once(1, 0, runs::incrementAndGet)).as("nonce 0 means none").isEqualTo(3);
    assertThat(nonces.once(1, 0, runs::incrementAndGet)).isEqualTo(4);
  }

  @Test
  void aRetryDuringTheFirstAttemptWaitsForIt() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    Future<Integer> first = pool.submit(() -> nonces.once(1, 7, () -> {
      started.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException();
      }
      return runs.incrementAndGet();
    }));
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    Future<Integer> retry = pool.submit(() -> nonces.once(1, 7, runs::incrementAndGet));
    Thread.sleep(100);
    assertThat(retry.isDone()).isFalse();
    release.countDown();
    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(retry.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(runs.get()).isEqualTo(1);
    pool.shutdown();
  }

  @Test
  void aFailedAttemptIsForgottenSoItsRetryRuns() throws IOException {
    assertThatThrownBy(() -> nonces.once(1, 9, () -> {
      throw new IOException("disk hiccup");
    })).hasMessage("disk hiccup");
    assertThat(nonces.once(1, 9, () -> "second try")).isEqualTo("second try");
  }
}
