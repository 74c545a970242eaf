package io.basalt.storage.je;

import com.sleepycat.je.EnvironmentConfig;
import io.basalt.storage.StorageConfig;

/** The JE settings every region's environment opens with, replicated or not. */
final class RegionEnvironmentConfig {
  private RegionEnvironmentConfig() {}

  /**
   * Records whose value is up to this size live in their B+-tree leaf (JE's embedded records) instead of a log entry
   * of their own, so a scan over small cells of a format-1 region (YCSB's 100-byte fields, a record each) reads no
   * log and caches no per-record object; small rows of format 2 likewise. Measured (docs/benchmarks.md): YCSB E
   * +10 % at 128 bytes in format 1; at 1 KB, PE's 1000-byte rows, random reads halve and buffered writes lose a
   * third, as leaves grow to 128 KB. JE decides per record, so regions written with JE's default (16) open
   * unchanged and their records are embedded as they are rewritten.
   */
  static final int EMBEDDED_VALUE_BYTES = 128;

  /**
   * Log written between checkpoints (JE's default: 20 MB). A checkpoint logs every B+-tree leaf changed since the
   * last one, so under random writes, which touch most leaves, the same leaves were logged again every few seconds.
   * Measured (docs/benchmarks.md, session 24): randomWrite 8 threads buffered +10% puts/s, 0.90x the server CPU and
   * 0.93x the disk bytes per put. The cost: a crashed region's recovery replays up to this much log (measured with
   * {@code bin/storage-bench --only recovery}: 2.0 s for 190 MB, 0.2-0.4 s for 20 MB), and a cleaned segment waits for
   * the next checkpoint to be deleted (a compaction forces one, {@link RegionLog#reclaimSpace}).
   */
  static final long CHECKPOINT_LOG_BYTES = 200L << 20;

  /**
   * Log since the last checkpoint above which a region's periodic maintenance checkpoints it: JE checkpoints by
   * bytes written only, so a region that stops writing keeps up to {@link #CHECKPOINT_LOG_BYTES} for its next
   * recovery. A region that writes fast reaches that interval long before its maintenance comes round.
   */
  static final long IDLE_CHECKPOINT_LOG_BYTES = 20L << 20;

  static EnvironmentConfig of(StorageConfig config, boolean allowCreate) {
    EnvironmentConfig ec = new EnvironmentConfig();
    ec.setAllowCreate(allowCreate);
    ec.setTransactional(true);
    ec.setSharedCache(true);
    ec.setCacheSize(config.cacheBytes());
    ec.setDurability(com.sleepycat.je.Durability.COMMIT_WRITE_NO_SYNC);
    ec.setConfigParam(EnvironmentConfig.LOG_FILE_MAX, Long.toString(config.logFileBytes()));
    ec.setConfigParam(EnvironmentConfig.LOG_FLUSH_NO_SYNC_INTERVAL, config.asyncFlushMillis() + " ms");
    ec.setConfigParam(EnvironmentConfig.FREE_DISK, Long.toString(config.freeDiskBytes()));
    ec.setConfigParam(EnvironmentConfig.STATS_COLLECT, "false");
    ec.setConfigParam(EnvironmentConfig.TREE_MAX_EMBEDDED_LN, Integer.toString(EMBEDDED_VALUE_BYTES));
    ec.setConfigParam(EnvironmentConfig.FILE_LOGGING_LEVEL, "OFF");
    ec.setConfigParam(EnvironmentConfig.CHECKPOINTER_BYTES_INTERVAL, Long.toString(CHECKPOINT_LOG_BYTES));
    // JE's own log (elections, syncups, rollbacks) to stderr when diagnosing: -Dbasalt.je.log.level=INFO
    ec.setConfigParam(EnvironmentConfig.CONSOLE_LOGGING_LEVEL, System.getProperty("basalt.je.log.level", "OFF"));
    // JE watches each environment's directory for log files deleted behind its back: one inotify instance
    // and a polling thread per region, and Linux allows 128 instances per user by default, far fewer than
    // the regions (and replica group members) a server hosts. A lost directory is caught when a region opens.
    ec.setConfigParam(EnvironmentConfig.LOG_DETECT_FILE_DELETE, "false");
    return ec;
  }
}
