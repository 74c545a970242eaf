package io.basalt.storage.error;


/**
 * Too few members of the group are up to acknowledge a write at the durability asked for: the write was not
 * acknowledged (retriable once members return).
 */
public final class ReplicasUnavailableException extends StorageException {
  public ReplicasUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
