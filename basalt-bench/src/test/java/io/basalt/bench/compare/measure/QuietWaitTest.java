package io.basalt.bench.compare.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class QuietWaitTest {
  private static final Duration SAMPLE = Duration.ofSeconds(2);
  private static final Duration LIMIT = Duration.ofSeconds(10);
  private static final long SECOND = 1_000_000_000L;

  private final List<Duration> slept = new ArrayList<>();

  private QuietWait.Result await(long... cumulativeCpuNanos) throws InterruptedException {
    PrimitiveIterator.OfLong readings = LongStream.of(cumulativeCpuNanos).iterator();
    return QuietWait.until(readings::nextLong, slept::add, 0.1, SAMPLE, LIMIT);
  }

  @Test
  void returnsAfterTheFirstSampleUnderTheIdleShare() throws InterruptedException {
    // 1.5 cores, then 0.5, then 0.05 of a core over the 2 s samples.
    QuietWait.Result r = await(0, 3 * SECOND, 4 * SECOND, 4 * SECOND + SECOND / 10);
    assertThat(r.quiet()).isTrue();
    assertThat(r.waited()).isEqualTo(Duration.ofSeconds(6));
    assertThat(slept).containsExactly(SAMPLE, SAMPLE, SAMPLE);
  }

  @Test
  void aSampleAtExactlyTheIdleShareIsNotIdle() throws InterruptedException {
    QuietWait.Result r = await(0, SECOND / 5, SECOND / 5);
    assertThat(r.waited()).isEqualTo(Duration.ofSeconds(4));
  }

  @Test
  void givesUpAtTheLimitAndSaysSo() throws InterruptedException {
    QuietWait.Result r = await(0, 2 * SECOND, 4 * SECOND, 6 * SECOND, 8 * SECOND, 10 * SECOND);
    assertThat(r.quiet()).isFalse();
    assertThat(r.waited()).isEqualTo(LIMIT);
    assertThat(slept).hasSize(5);
  }

  @Test
  void doesNotWaitWhereTheOsExposesNoCpuTime() throws InterruptedException {
    QuietWait.Result r = await(-1);
    assertThat(r.quiet()).isTrue();
    assertThat(r.waited()).isZero();
    assertThat(slept).isEmpty();
  }
}
