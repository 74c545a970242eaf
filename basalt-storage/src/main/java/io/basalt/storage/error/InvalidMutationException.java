package io.basalt.storage.error;

/** A mutation that can never succeed: an increment of a value that is not 8 bytes, a bad timestamp. */
public class InvalidMutationException extends StorageException {
  public InvalidMutationException(String message) {
    super(message);
  }

  public InvalidMutationException(String message, Throwable cause) {
    super(message, cause);
  }
}
