package io.basalt.storage.error;

/** A mutation or read named a column family the region does not have. */
public class UnknownFamilyException extends StorageException {
  public UnknownFamilyException(String message) {
    super(message);
  }

  public UnknownFamilyException(String message, Throwable cause) {
    super(message, cause);
  }
}
