package io.basalt.storage.error;

/** A row outside the region's key range (the region was split, or the caller routed wrongly). */
public class RowOutOfRangeException extends StorageException {
  public RowOutOfRangeException(String message) {
    super(message);
  }

  public RowOutOfRangeException(String message, Throwable cause) {
    super(message, cause);
  }
}
