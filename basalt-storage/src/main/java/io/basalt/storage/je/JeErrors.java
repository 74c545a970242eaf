package io.basalt.storage.je;

import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.DiskLimitException;
import com.sleepycat.je.rep.InsufficientAcksException;
import com.sleepycat.je.rep.InsufficientReplicasException;
import com.sleepycat.je.rep.StateChangeException;
import io.basalt.storage.error.NotPrimaryException;
import io.basalt.storage.error.ReplicasUnavailableException;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.error.StorageFullException;

/** Turns JE's exceptions into the storage layer's own, so nothing above sees JE types. */
final class JeErrors {
  private JeErrors() {}

  static StorageException translate(String what, DatabaseException e) {
    String message = e.getMessage().lines().findFirst().orElse(e.toString());
    if (e instanceof DiskLimitException) {
      return new StorageFullException(what + " refused: disk too full (" + message + ")", e);
    }
    if (e instanceof StateChangeException s) {
      // a write on a secondary, or on a member whose group has no primary now
      return new NotPrimaryException(what + " refused: this copy is not the primary (" + message + ")", primary(s));
    }
    if (e instanceof InsufficientReplicasException || e instanceof InsufficientAcksException) {
      return new ReplicasUnavailableException(what + " not acknowledged: too few members of the replica group are "
          + "up (" + message + ")", e);
    }
    return new StorageException(what + " failed: " + message, e);
  }

  private static String primary(StateChangeException e) {
    try {
      return e.getEvent() == null ? null : e.getEvent().getMasterNodeName();
    } catch (IllegalStateException noMaster) {
      return null;
    }
  }
}
