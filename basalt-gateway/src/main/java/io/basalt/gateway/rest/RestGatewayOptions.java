package io.basalt.gateway.rest;

import org.apache.hadoop.conf.Configuration;

/**
 * How the REST gateway listens, under HBase's REST server keys so an hbase-site.xml written for HBase's gateway
 * means the same here. Port 0 (tests) picks a free port; an info port of -1 turns /metrics off. Scanners idle
 * longer than the client scanner timeout are closed, as the Thrift gateway does.
 */
public record RestGatewayOptions(String bindAddress, int port, int minThreads, int maxThreads, int infoPort,
    boolean readOnly, long scannerLeaseMillis) {
  public static final String PORT = "hbase.rest.port";
  public static final String BIND = "hbase.rest.host";
  public static final String MIN_THREADS = "hbase.rest.threads.min";
  public static final String MAX_THREADS = "hbase.rest.threads.max";
  public static final String INFO_PORT = "hbase.rest.info.port";
  public static final String READ_ONLY = "hbase.rest.readonly";
  public static final String SCANNER_LEASE = "hbase.client.scanner.timeout.period";
  /** Rows a stateless scan fetches per round trip, and per chunk of its streamed protobuf (HBase's key). */
  public static final String SCAN_FETCH_SIZE = "hbase.rest.scan.fetchsize";
  public static final int DEFAULT_SCAN_FETCH_SIZE = 10;

  public RestGatewayOptions {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException(PORT + " must be 0..65535, not " + port);
    }
    if (minThreads < 1 || maxThreads < minThreads) {
      throw new IllegalArgumentException("threads need 1 <= " + MIN_THREADS + " (" + minThreads + ") <= "
          + MAX_THREADS + " (" + maxThreads + ")");
    }
    if (scannerLeaseMillis < 1) {
      throw new IllegalArgumentException(SCANNER_LEASE + " must be positive");
    }
  }

  /** HBase's defaults: 0.0.0.0:8080, 2..100 threads, /metrics on 8085, writable. */
  public static RestGatewayOptions from(Configuration conf) {
    return new RestGatewayOptions(conf.get(BIND, "0.0.0.0"), conf.getInt(PORT, 8080), conf.getInt(MIN_THREADS, 2),
        conf.getInt(MAX_THREADS, 100), conf.getInt(INFO_PORT, 8085), conf.getBoolean(READ_ONLY, false),
        conf.getLong(SCANNER_LEASE, 60_000));
  }
}
