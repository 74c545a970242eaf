package io.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SplitHoldsTest {
  private static final TableName T = TableName.valueOf("t");
  private static final RegionInfo PARENT = region(T, "b", "f", 1);
  private static final RegionInfo DAUGHTER_A = region(T, "b", "d", 2);
  private static final RegionInfo DAUGHTER_B = region(T, "d", "f", 2);

  private static RegionInfo region(TableName t, String start, String end, long id) {
    return RegionInfoBuilder.newBuilder(t).setStartKey(Bytes.toBytes(start)).setEndKey(Bytes.toBytes(end))
        .setRegionId(id).build();
  }

  private static CompletableFuture<Long> awaitInBackground(SplitHolds holds, RegionInfo region) {
    long start = System.nanoTime(); // at the call, not when the pool gets to it: the test's sleeps count from here
    return CompletableFuture.supplyAsync(() -> {
      try {
        holds.await(region.getEncodedName());
      } catch (java.io.InterruptedIOException e) {
        throw new IllegalStateException(e);
      }
      return (System.nanoTime() - start) / 1_000_000;
    });
  }

  @Test
  void aWriteToARegionNotHeldGoesOnAtOnce() throws Exception {
    SplitHolds holds = new SplitHolds(Duration.ofSeconds(20));
    holds.hold(PARENT);
    assertThat(awaitInBackground(holds, DAUGHTER_A).get(5, TimeUnit.SECONDS)).isLessThan(1_000);
  }

  @Test
  void heldWritesGoOnWhenADaughterOpensHere() throws Exception {
    SplitHolds holds = new SplitHolds(Duration.ofSeconds(20));
    holds.hold(PARENT);
    CompletableFuture<Long> waited = awaitInBackground(holds, PARENT);
    Thread.sleep(300);
    assertThat(waited).isNotDone();
    holds.daughterOpened(region(TableName.valueOf("other"), "b", "d", 2)); // another table's region: no effect
    holds.daughterOpened(PARENT); // the parent itself reopening is not a daughter
    Thread.sleep(100);
    assertThat(waited).isNotDone();
    holds.daughterOpened(DAUGHTER_B);
    assertThat(waited.get(5, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(300);
    assertThat(awaitInBackground(holds, PARENT).get(5, TimeUnit.SECONDS)).isLessThan(1_000);
  }

  @Test
  void aMergedRegionOpeningDoesNotEndTheHoldsOfTheRegionsItReplaces() throws Exception {
    SplitHolds holds = new SplitHolds(Duration.ofSeconds(20));
    RegionInfo upper = region(T, "f", "h", 1);
    holds.hold(PARENT);
    holds.hold(upper);
    CompletableFuture<Long> lowerWaits = awaitInBackground(holds, PARENT);
    CompletableFuture<Long> upperWaits = awaitInBackground(holds, upper);
    holds.daughterOpened(region(T, "b", "h", 3)); // the merged region's member, before it is published
    Thread.sleep(300);
    assertThat(lowerWaits).isNotDone();
    assertThat(upperWaits).isNotDone();
    holds.release(PARENT); // dropped once the merged region is published
    holds.release(upper);
    assertThat(lowerWaits.get(5, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(300);
    assertThat(upperWaits.get(5, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(300);
  }

  @Test
  void anUndoneSplitReleasesItsWrites() throws Exception {
    SplitHolds holds = new SplitHolds(Duration.ofSeconds(20));
    holds.hold(PARENT);
    CompletableFuture<Long> waited = awaitInBackground(holds, PARENT);
    Thread.sleep(200);
    holds.release(PARENT);
    assertThat(waited.get(5, TimeUnit.SECONDS)).isLessThan(5_000);
  }

  @Test
  void aHoldNobodyEndsExpires() throws Exception {
    SplitHolds holds = new SplitHolds(Duration.ofMillis(500));
    holds.hold(PARENT);
    assertThat(awaitInBackground(holds, PARENT).get(5, TimeUnit.SECONDS)).isBetween(300L, 3_000L);
    assertThat(awaitInBackground(holds, PARENT).get(5, TimeUnit.SECONDS)).isLessThan(300);
  }
}
