package io.basalt.storage.je;

/** Keeps background work under a rate of operations per second by sleeping between batches. */
final class Throttle {
  private final int perSecond;
  private final long startNanos = System.nanoTime();
  private long done;

  Throttle(int perSecond) {
    this.perSecond = perSecond;
  }

  void record(long ops) {
    done += ops;
    long dueNanos = done * 1_000_000_000L / perSecond;
    long aheadNanos = dueNanos - (System.nanoTime() - startNanos);
    if (aheadNanos > 1_000_000) {
      try {
        Thread.sleep(aheadNanos / 1_000_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
