package io.basalt.storage.schema;

/** HBase's KEEP_DELETED_CELLS family setting. */
public enum KeepDeletedCells {
  /** Deleted cells are invisible to every read and purged. */
  FALSE,
  /** Deleted cells stay readable by reads whose time range ends before the delete marker. */
  TRUE,
  /** Like TRUE until the cells and markers pass the family TTL, then purged. */
  TTL
}
