package io.basalt.storage.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RowLocksTest {
  private final RowLocks locks = new RowLocks(1024);
  private final AtomicInteger runs = new AtomicInteger();
  private volatile String value = "old";

  private static byte[] row(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A write of {@code row} by another thread, under its lock, done when this returns. */
  private void writeElsewhere(String row, String newValue) {
    CompletableFuture.runAsync(() -> {
      try (RowLocks.Held held = locks.writeLock(row(row))) {
        value = newValue;
      }
    }).join();
  }

  @Test
  void aReadNoWriterDisturbsRunsOnce() {
    try (RowLocks.Held held = locks.writeLockAll(List.of(row("a"), row("b")))) {
      value = "new";
    }
    assertThat(locks.readRow(row("a"), () -> {
      runs.incrementAndGet();
      return value;
    })).isEqualTo("new");
    assertThat(runs).as("every lock taken was released: no stripe needed").hasValue(1);
  }

  @Test
  void aWriteToTheSameRowDuringTheReadMakesItReadAgain() {
    String seen = locks.readRow(row("a"), () -> {
      if (runs.incrementAndGet() == 1) {
        String before = value;
        writeElsewhere("a", "new");
        return before;
      }
      return value;
    });
    assertThat(seen).isEqualTo("new");
    assertThat(runs).hasValue(2);
  }

  @Test
  void aWriteToAnotherRowDuringTheReadIsJudgedByTheRowsOwnStripe() {
    byte[] other = row("b");
    assertThat(locks.shareStripe(row("a"), other)).isFalse();
    String seen = locks.readRow(row("a"), () -> {
      if (runs.incrementAndGet() == 1) {
        writeElsewhere("b", "b's");
      }
      return "a's";
    });
    assertThat(seen).isEqualTo("a's");
    assertThat(runs).as("the region-wide check failed, the stripe's passed").hasValue(2);
  }

  @Test
  void aReadWaitsForAWriterHoldingItsRow() throws Exception {
    RowLocks.Held held = locks.writeLock(row("a"));
    value = "half-written";
    CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> locks.readRow(row("a"), () -> {
      runs.incrementAndGet();
      return value;
    }));
    assertThatThrownBy(() -> read.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
    assertThat(runs).as("neither optimistic read ran while the row was locked").hasValue(0);
    value = "written";
    held.close();
    assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo("written");
  }

  @Test
  void aFailureSeenWhileAWriterWasInIsRetried() {
    String seen = locks.readRow(row("a"), () -> {
      if (runs.incrementAndGet() == 1) {
        writeElsewhere("a", "new");
        throw new IllegalStateException("half-written state");
      }
      return value;
    });
    assertThat(seen).isEqualTo("new");
  }
}
