package io.basalt.storage.je;

import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.DiskLimitException;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.error.StorageFullException;

/** Turns JE's exceptions into the storage layer's own, so nothing above sees JE types. */
final class JeErrors {
  private JeErrors() {}

  static StorageException translate(String what, DatabaseException e) {
    if (e instanceof DiskLimitException) {
      return new StorageFullException(what + " refused: disk too full (" + e.getMessage().lines().findFirst().orElse("")
          + ")", e);
    }
    return new StorageException(what + " failed: " + e.getMessage().lines().findFirst().orElse(e.toString()), e);
  }
}
