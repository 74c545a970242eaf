package io.basalt.server.config;

/** How long a region server keeps an idle scanner and how much one scan call may return. */
public final class ScannerKeys {
  private ScannerKeys() {}

  public static final ConfigKey<Long> LEASE = ConfigKey.millis("hbase.client.scanner.timeout.period", 60_000, 1_000,
      "How long, in ms, a region server keeps a scanner no call has used; a later call on it gets "
          + "UnknownScannerException and the client reopens it (HBase's key and default).");

  public static final ConfigKey<Long> MAX_RESULT_SIZE = ConfigKey.bytes("hbase.server.scanner.max.result.size",
      100L << 20, 1, "The most a region server returns in one scan call, whatever the client's maxResultSize asks; "
          + "a wide row is cut into partial results at this size for clients that take them (HBase's key and "
          + "default).");
}
