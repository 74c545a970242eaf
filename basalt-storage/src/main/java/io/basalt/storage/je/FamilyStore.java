package io.basalt.storage.je;

import com.sleepycat.je.CacheMode;
import com.sleepycat.je.Database;
import com.sleepycat.je.Transaction;
import io.basalt.storage.schema.FamilySchema;

/** One column family of a region: its settings, the JE database holding its cells and how they are laid out there. */
final class FamilyStore {
  private final FamilySchema schema;
  private final Database db;
  private final CellLayout layout;
  private final ReadCursors readCursors;
  /**
   * False once a purge walk found no marker left and the family has no TTL, until a delete writes a marker: puts trim
   * their columns to VERSIONS as they go, so only markers (and TTL) make cells dead. True for a newly opened family
   * (a copy that was a secondary, say, did not see the deletes it applied).
   */
  private volatile boolean mayHoldDeadCells = true;

  FamilyStore(FamilySchema schema, Database db, CellLayout layout) {
    this.schema = schema;
    this.db = db;
    this.layout = layout;
    this.readCursors = new ReadCursors(db);
  }

  FamilySchema schema() {
    return schema;
  }

  Database db() {
    return db;
  }

  CellLayout layout() {
    return layout;
  }

  byte[] name() {
    return schema.name();
  }

  /** A cursor reading without locks and outside any transaction; its JE cursor is reused (see {@link ReadCursors}). */
  CellCursor openRead() {
    return layout.wrapRead(readCursors);
  }

  CellCursor openWrite(Transaction txn) {
    return openWrite(txn, null);
  }

  CellCursor openWrite(Transaction txn, CacheMode cacheMode) {
    return layout.openWrite(db, txn, cacheMode);
  }

  boolean mayHoldDeadCells() {
    return mayHoldDeadCells || schema.hasTtl();
  }

  /** A purge walk of the family starts: a marker written from now on is one it may not see. */
  void walkStarted() {
    mayHoldDeadCells = false;
  }

  /** A marker was written (or a walk left one, or stopped early): the next purge pass walks the family. */
  void mayHoldDeadCellsAgain() {
    mayHoldDeadCells = true;
  }

  /** Closes the database, and first the read cursors kept for reuse; no cursor of it may be in use. */
  void close() {
    readCursors.close();
    db.close();
  }
}
