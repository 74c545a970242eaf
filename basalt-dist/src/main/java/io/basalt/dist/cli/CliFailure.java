package io.basalt.dist.cli;

/** A reason not to go on that the user can fix, printed as one line ("basalt COMMAND: message"), exit code 2. */
final class CliFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CliFailure(String message) {
    super(message);
  }
}
