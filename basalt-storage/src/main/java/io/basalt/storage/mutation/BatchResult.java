package io.basalt.storage.mutation;

import java.util.Arrays;

/**
 * What a batch of row mutations did, mutation by mutation: each was applied atomically on its own, or
 * failed on its own with an exception, leaving the others as they were.
 */
public final class BatchResult {
  private final RuntimeException[] failures;

  public BatchResult(RuntimeException[] failures) {
    this.failures = failures.clone();
  }

  public int size() {
    return failures.length;
  }

  public boolean applied(int index) {
    return failures[index] == null;
  }

  /** Why mutation {@code index} was not applied; null if it was. */
  public RuntimeException failure(int index) {
    return failures[index];
  }

  public boolean allApplied() {
    return Arrays.stream(failures).allMatch(f -> f == null);
  }
}
