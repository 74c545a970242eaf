package io.basalt.server.transfer;

import java.io.Closeable;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a blocking channel that made no progress for a while. Blocking NIO channels ignore socket
 * timeouts, and a stalled peer would otherwise hold a transfer thread forever; closing the channel wakes
 * the blocked read or write with an exception, which {@link #explain} turns into a timeout.
 */
final class StallWatch implements AutoCloseable {
  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "basalt-transfer-watchdog");
    t.setDaemon(true);
    return t;
  });

  private final Closeable channel;
  private final long idleNanos;
  private final ScheduledFuture<?> check;
  private volatile long lastProgress = System.nanoTime();
  private volatile boolean stalled;

  private StallWatch(Closeable channel, Duration idle) {
    this.channel = channel;
    this.idleNanos = idle.toNanos();
    long period = Math.max(10, idle.toMillis() / 4);
    this.check = TIMER.scheduleAtFixedRate(this::check, period, period, TimeUnit.MILLISECONDS);
  }

  static StallWatch on(Closeable channel, Duration idle) {
    return new StallWatch(channel, idle);
  }

  /** Closes {@code channel} after {@code delay}, without holding a thread meanwhile. */
  static void closeLater(Closeable channel, Duration delay) {
    TIMER.schedule(() -> {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing is all we can do
      }
    }, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  void progress() {
    lastProgress = System.nanoTime();
  }

  private void check() {
    if (!stalled && System.nanoTime() - lastProgress > idleNanos) {
      stalled = true;
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing is all we can do
      }
    }
  }

  /** {@code e} as a timeout if this watch closed the channel, else {@code e} itself. */
  IOException explain(IOException e) {
    if (!stalled) {
      return e;
    }
    SocketTimeoutException timeout =
        new SocketTimeoutException("no progress for " + TimeUnit.NANOSECONDS.toMillis(idleNanos) + " ms");
    timeout.initCause(e);
    return timeout;
  }

  @Override
  public void close() {
    check.cancel(false);
  }
}
