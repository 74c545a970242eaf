package io.basalt.bench.storage;

/**
 * One row of the split table: a region of {@code rows} rows ({@code logBytes} of log segments) loaded in
 * {@code loadNanos}, its midpoint found in {@code midpointFirstNanos} (first call) and
 * {@code midpointMedianNanos} (median of the following calls), closed in {@code closeNanos}, cloned into two
 * daughters (time and bytes copied each) that were then opened restricted to their halves.
 */
record SplitResult(long dataMb, long rows, long logBytes, long loadNanos, long midpointFirstNanos,
    long midpointMedianNanos, long closeNanos, long[] cloneNanos, long[] copiedBytes, long[] openNanos,
    long[] daughterCells) {}
