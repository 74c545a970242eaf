package io.basalt.bench.storage;

/**
 * One measured figure: {@code ops} operations completed by {@code threads} threads in {@code nanos}, while
 * the process used {@code cpuNanos} of CPU and read {@code readBytes} bytes (-1 if unknown).
 */
record Rate(int threads, long ops, long nanos, long cpuNanos, long readBytes) {
  /** The same figure counted in items, when each operation handled {@code items} of them (a batch of puts). */
  Rate perItem(int items) {
    return new Rate(threads, ops * items, nanos, cpuNanos, readBytes);
  }

  double opsPerSecond() {
    return ops * 1e9 / nanos;
  }

  double cpuMicrosPerOp() {
    return ops == 0 ? Double.NaN : cpuNanos / 1e3 / ops;
  }

  /** Bytes read per operation, or NaN when unknown. */
  double readBytesPerOp() {
    return ops == 0 || readBytes < 0 ? Double.NaN : (double) readBytes / ops;
  }

  /** Mean time one operation took on one thread. */
  double meanLatencyMicros() {
    return ops == 0 ? Double.NaN : nanos / 1e3 * threads / ops;
  }
}
