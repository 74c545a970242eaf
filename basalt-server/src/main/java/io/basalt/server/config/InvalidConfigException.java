package io.basalt.server.config;

/** A configuration value or file that cannot be used; the message names the key (or file) and why. */
public final class InvalidConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidConfigException(String message) {
    super(message);
  }

  public InvalidConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
