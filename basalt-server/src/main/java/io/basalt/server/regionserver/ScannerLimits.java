package io.basalt.server.regionserver;

import io.basalt.server.config.ScannerKeys;

/**
 * A region server's scanner settings: how long an unused scanner lives ({@code leaseMillis}) and the most one scan
 * call returns ({@code maxResultBytes}, the cap on the client's own maxResultSize).
 */
public record ScannerLimits(long leaseMillis, long maxResultBytes) {
  public static final ScannerLimits DEFAULT =
      new ScannerLimits(ScannerKeys.LEASE.defaultValue(), ScannerKeys.MAX_RESULT_SIZE.defaultValue());

  public ScannerLimits {
    if (leaseMillis <= 0 || maxResultBytes <= 0) {
      throw new IllegalArgumentException("scanner lease and result size must be positive: " + leaseMillis + " ms, "
          + maxResultBytes + " bytes");
    }
  }
}
