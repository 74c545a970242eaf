package io.basalt.bench.storage;

/** The benchmark could not measure what it set out to (a worker failed, a read returned wrong data). */
final class BenchFailure extends RuntimeException {
  BenchFailure(String message) {
    super(message);
  }

  BenchFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
