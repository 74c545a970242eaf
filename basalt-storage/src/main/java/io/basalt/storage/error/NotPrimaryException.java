package io.basalt.storage.error;

import java.util.Optional;

/** A write reached a member that is not its group's primary; {@link #primary()} names the one it knows. */
public final class NotPrimaryException extends StorageException {
  private final String primary;

  public NotPrimaryException(String message, String primary) {
    super(message);
    this.primary = primary;
  }

  public Optional<String> primary() {
    return Optional.ofNullable(primary);
  }
}
