package io.basalt.storage.je;

import com.sleepycat.je.CheckpointConfig;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.EnvironmentMutableConfig;
import com.sleepycat.je.StatsConfig;
import io.basalt.storage.io.StorageFiles;
import io.basalt.storage.segment.LogSegmentSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * A region's JE log files as a whole: the segment sets a move ships (JE's cleaner paused while one is open),
 * space reclaimed on demand, and their total size for the region's stats.
 */
final class RegionLog {
  /** How long {@link #reclaimSpace} waits for cleaned segments that JE has not deleted yet. */
  private static final long RESERVED_WAIT_MILLIS = 2_000;

  private final Environment env;
  private final Path dir;
  private final StorageFiles files;
  private final BooleanSupplier closing;
  private final Object segmentsLock = new Object();
  private JeLogSegmentSet activeSegmentSet;
  private volatile long cachedLogBytes = -1;
  private volatile long cachedLogBytesAt;

  /** {@code closing}: whether the region's close began. */
  RegionLog(Environment env, Path dir, StorageFiles files, BooleanSupplier closing) {
    this.env = env;
    this.dir = dir;
    this.files = files;
    this.closing = closing;
  }

  /** {@code after}: the last segment not wanted, or -1 for all; the caller keeps the region open. */
  LogSegmentSet openSegmentSet(long after) {
    try {
      synchronized (segmentsLock) {
        if (activeSegmentSet != null) {
          throw new IllegalStateException("a log segment set of " + dir + " is already open");
        }
        // The cleaner is paused while the set is open (the paper's PRE-CLOSE): cleaning would rewrite live
        // data into new segments, which a move must then ship while the region is unavailable.
        setCleaning(false);
        JeLogSegmentSet set;
        try {
          set = JeLogSegmentSet.start(env, dir, after, files, () -> {
            synchronized (segmentsLock) {
              activeSegmentSet = null;
            }
            if (!closing.getAsBoolean()) {
              setCleaning(true); // not when closing: a cleaner run now would only lengthen the close
            }
          });
        } catch (RuntimeException e) {
          setCleaning(true);
          throw e;
        }
        activeSegmentSet = set;
        return set;
      }
    } catch (DatabaseException e) {
      throw JeErrors.translate("log segment listing", e);
    }
  }

  /**
   * JE refuses to close an environment with a backup in progress, so closing the region ends its open
   * segment set: the files are then those of a closed directory, which nothing changes until it is opened
   * again ({@link io.basalt.storage.region.StorageEngine#closedSegments}).
   */
  void endSegmentSet() {
    JeLogSegmentSet set;
    synchronized (segmentsLock) {
      set = activeSegmentSet;
    }
    if (set != null) {
      set.close();
    }
  }

  private void setCleaning(boolean on) {
    EnvironmentMutableConfig c = env.getMutableConfig();
    c.setConfigParam(EnvironmentConfig.ENV_RUN_CLEANER, Boolean.toString(on));
    env.setMutableConfig(c);
  }

  /** Whether JE's cleaner daemon runs for this region (paused while a log segment set is open). */
  boolean isCleaning() {
    return Boolean.parseBoolean(env.getMutableConfig().getConfigParam(EnvironmentConfig.ENV_RUN_CLEANER));
  }

  /** A forced checkpoint: recovery of a copy of the log made after it starts here. */
  void checkpoint() {
    CheckpointConfig force = new CheckpointConfig();
    force.setForce(true);
    env.checkpoint(force);
  }

  /**
   * A checkpoint if more than {@link RegionEnvironmentConfig#IDLE_CHECKPOINT_LOG_BYTES} were logged since the last
   * one, so that a region that went quiet recovers from a crash in a fraction of a second.
   */
  void checkpointIfBehind() {
    CheckpointConfig behind = new CheckpointConfig();
    behind.setKBytes((int) (RegionEnvironmentConfig.IDLE_CHECKPOINT_LOG_BYTES >> 10));
    env.checkpoint(behind);
  }

  /**
   * Asks JE to clean segments whose live data fell low, and to checkpoint so the cleaned ones go. Cleaning and
   * checkpointing are repeated while a round still cleans something (at most 3 rounds): a file JE's background
   * cleaner had begun is finished and deleted only after a later checkpoint, so one round sometimes freed nothing.
   * Then, while cleaned segments are still on disk (JE's "reserved" files), checkpoints again for a short while:
   * JE deletes them at a checkpoint's end only if no cleaner thread is in its disk-usage pass at that moment
   * (it probes a lock and otherwise leaves them to its next periodic pass), which under load left a compaction
   * returning with its space not yet freed.
   */
  void reclaimSpace() {
    CheckpointConfig force = new CheckpointConfig();
    force.setForce(true);
    for (int round = 0; round < 3; round++) {
      int cleaned = 0;
      for (int n; (n = env.cleanLog()) > 0; ) {
        cleaned += n;
      }
      env.checkpoint(force);
      if (cleaned == 0 && round > 0) {
        break;
      }
    }
    // A replica group's members keep reserved files on purpose (for members catching up), until disk runs short.
    boolean keepsReserved = env instanceof com.sleepycat.je.rep.ReplicatedEnvironment;
    StatsConfig fast = new StatsConfig().setFast(true);
    long deadline = System.nanoTime() + RESERVED_WAIT_MILLIS * 1_000_000L;
    while (!keepsReserved && env.getStats(fast).getReservedLogSize() > 0 && System.nanoTime() - deadline < 0) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      env.checkpoint(force);
    }
    cachedLogBytes = -1;
  }

  /** The bytes of the log files; listing them costs a directory walk, so it is done at most once a second. */
  long logBytes() {
    return logBytes(false);
  }

  /** {@code fresh}: list the files now rather than answer from the last second's listing. */
  long logBytes(boolean fresh) {
    long now = System.nanoTime();
    if (fresh || cachedLogBytes < 0 || now - cachedLogBytesAt > 1_000_000_000L) {
      long total = 0;
      try {
        for (Path p : files.listSegments(dir)) {
          try {
            total += files.size(p);
          } catch (java.nio.file.NoSuchFileException gone) {
            // deleted by the cleaner while we listed
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      cachedLogBytes = total;
      cachedLogBytesAt = now;
    }
    return cachedLogBytes;
  }
}
