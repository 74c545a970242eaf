package io.basalt.storage.je;

import com.sleepycat.je.Database;
import io.basalt.storage.schema.FamilySchema;

/** One column family of a region: its settings and the JE database holding its cells. */
record FamilyStore(FamilySchema schema, Database db) {
  byte[] name() {
    return schema.name();
  }
}
