package io.basalt.server.rpc;

import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.error.NotPrimaryException;
import io.basalt.storage.error.RegionClosedException;
import io.basalt.storage.error.ReplicasUnavailableException;
import io.basalt.storage.error.RowOutOfRangeException;
import io.basalt.storage.error.StorageFullException;
import io.basalt.storage.error.UnknownFamilyException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.regionserver.WrongRegionException;

/** Maps failures inside the server to the HBase exception a client expects for them. */
public final class ServerErrors {
  private ServerErrors() {}

  public static IOException toIOException(Throwable t) {
    if (t instanceof IOException io) {
      return io;
    }
    if (t instanceof UncheckedIOException u) {
      return u.getCause();
    }
    if (t instanceof UnknownFamilyException) {
      return new NoSuchColumnFamilyException(t.getMessage());
    }
    if (t instanceof RowOutOfRangeException) {
      return new WrongRegionException(t.getMessage());
    }
    if (t instanceof RegionClosedException || t instanceof NotPrimaryException) {
      return new NotServingRegionException(t.getMessage());
    }
    if (t instanceof ReplicasUnavailableException) {
      // retriable without a new lookup: the primary is right, its group is short of members to acknowledge
      return new org.apache.hadoop.hbase.RegionTooBusyException(t.getMessage());
    }
    if (t instanceof StorageFullException) {
      return new DoNotRetryIOException(t.getMessage());
    }
    if (t instanceof InvalidMutationException || t instanceof IllegalArgumentException) {
      return new DoNotRetryIOException(t.getMessage());
    }
    if (t instanceof io.basalt.storage.error.StorageException) {
      return new IOException(t.getMessage(), t); // e.g. an I/O failure in the engine: worth a retry
    }
    // Anything else is a bug or a request we cannot serve; retrying the same call will not help.
    return new DoNotRetryIOException(t.toString(), t);
  }
}
