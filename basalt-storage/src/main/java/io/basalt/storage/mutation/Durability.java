package io.basalt.storage.mutation;

/**
 * HBase's durability levels and what Basalt promises for each. The JE log is the write-ahead log.
 */
public enum Durability {
  /** In the JE log buffer only; lost if the process dies before the next background flush. */
  SKIP_WAL,
  /** Written to the OS by a background flush within the configured interval (HBase's ASYNC_WAL). */
  ASYNC_WAL,
  /** Written to the OS before the ack: survives a process crash, not a machine crash. HBase's default. */
  SYNC_WAL,
  /** fsync'ed before the ack, concurrent writers sharing fsyncs (group commit): survives a machine crash. */
  FSYNC_WAL
}
