package io.basalt.storage.lock;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.locks.StampedLock;

/**
 * Per-row locks, striped: rows hash to a fixed set of {@link StampedLock}s. A writer holds its row's stripe
 * exclusively for the whole transaction; a reader reads optimistically and re-reads under the read lock
 * only if a writer of the same stripe got in between. Collisions cost a retry, never correctness.
 */
public final class RowLocks {
  private final StampedLock[] stripes;

  public RowLocks(int stripeCount) {
    int n = Integer.highestOneBit(Math.max(16, stripeCount - 1) << 1);
    stripes = new StampedLock[n];
    for (int i = 0; i < n; i++) {
      stripes[i] = new StampedLock();
    }
  }

  public StampedLock forRow(byte[] row) {
    return stripes[stripeOf(row)];
  }

  private int stripeOf(byte[] row) {
    int h = Arrays.hashCode(row);
    h ^= h >>> 16;
    return h & (stripes.length - 1);
  }

  /**
   * Write-locks the stripes of all {@code rows} (each stripe once, however many rows share it) in stripe
   * order, so two batches locking overlapping rows cannot deadlock; single-row lockers hold one stripe only.
   */
  public Held writeLockAll(List<byte[]> rows) {
    BitSet wanted = new BitSet(stripes.length);
    for (byte[] row : rows) {
      wanted.set(stripeOf(row));
    }
    int[] held = new int[wanted.cardinality()];
    long[] stamps = new long[held.length];
    int n = 0;
    for (int s = wanted.nextSetBit(0); s >= 0; s = wanted.nextSetBit(s + 1)) {
      stamps[n] = stripes[s].writeLock();
      held[n++] = s;
    }
    return new Held(held, stamps);
  }

  /** Stripes held by {@link #writeLockAll}; {@link #close()} releases them. */
  public final class Held implements AutoCloseable {
    private final int[] held;
    private final long[] stamps;

    private Held(int[] held, long[] stamps) {
      this.held = held;
      this.stamps = stamps;
    }

    @Override
    public void close() {
      for (int i = held.length - 1; i >= 0; i--) {
        stripes[held[i]].unlockWrite(stamps[i]);
      }
    }
  }

  /** A read that may have to run twice. */
  @FunctionalInterface
  public interface Read<T> {
    T run();
  }

  /** Runs {@code read} optimistically, and again under the read lock if a writer interfered. */
  public <T> T readRow(byte[] row, Read<T> read) {
    StampedLock lock = forRow(row);
    long stamp = lock.tryOptimisticRead();
    if (stamp != 0) {
      try {
        T result = read.run();
        if (lock.validate(stamp)) {
          return result;
        }
      } catch (RuntimeException e) {
        if (lock.validate(stamp)) {
          throw e;
        }
        // Saw a writer's half-done state; the locked re-read below decides.
      }
    }
    stamp = lock.readLock();
    try {
      return read.run();
    } finally {
      lock.unlockRead(stamp);
    }
  }
}
