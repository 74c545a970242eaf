package io.basalt.storage.error;

/** The region was closed (or is closing for a split or move); the caller should re-locate and retry. */
public class RegionClosedException extends StorageException {
  public RegionClosedException(String message) {
    super(message);
  }

  public RegionClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
