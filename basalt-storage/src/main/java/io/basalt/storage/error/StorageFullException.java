package io.basalt.storage.error;

/** The disk is too full to accept writes; nothing was written. Reads keep working. */
public class StorageFullException extends StorageException {
  public StorageFullException(String message) {
    super(message);
  }

  public StorageFullException(String message, Throwable cause) {
    super(message, cause);
  }
}
