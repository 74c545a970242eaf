package io.basalt.storage.je;

import com.sleepycat.je.CacheMode;
import com.sleepycat.je.Database;
import com.sleepycat.je.Transaction;
import io.basalt.storage.schema.FamilySchema;

/** One column family of a region: its settings, the JE database holding its cells and how they are laid out there. */
record FamilyStore(FamilySchema schema, Database db, CellLayout layout) {
  byte[] name() {
    return schema.name();
  }

  CellCursor openRead() {
    return layout.openRead(db);
  }

  CellCursor openWrite(Transaction txn) {
    return openWrite(txn, null);
  }

  CellCursor openWrite(Transaction txn, CacheMode cacheMode) {
    return layout.openWrite(db, txn, cacheMode);
  }
}
