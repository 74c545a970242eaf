package io.basalt.storage.error;

/** Base of every failure the storage layer reports; the server maps each subclass to an HBase exception. */
public class StorageException extends RuntimeException {
  public StorageException(String message) {
    super(message);
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
