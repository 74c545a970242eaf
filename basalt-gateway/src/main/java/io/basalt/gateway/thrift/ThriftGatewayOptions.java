package io.basalt.gateway.thrift;

import org.apache.hadoop.conf.Configuration;

/**
 * How the Thrift 1 gateway listens, under HBase's ThriftServer keys so an hbase-site.xml written for HBase's
 * gateway means the same here. Port 0 (tests) picks a free port; an info port of -1 turns /metrics off.
 */
public record ThriftGatewayOptions(String bindAddress, int port, boolean framed, int maxFrameBytes, boolean compact,
    int minWorkers, int maxWorkers, int infoPort, long scannerLeaseMillis) {
  public static final String PORT = "hbase.regionserver.thrift.port";
  public static final String BIND = "hbase.regionserver.thrift.ipaddress";
  public static final String FRAMED = "hbase.regionserver.thrift.framed";
  public static final String MAX_FRAME_MB = "hbase.regionserver.thrift.framed.max_frame_size_in_mb";
  public static final String COMPACT = "hbase.regionserver.thrift.compact";
  public static final String MIN_WORKERS = "hbase.thrift.minWorkerThreads";
  public static final String MAX_WORKERS = "hbase.thrift.maxWorkerThreads";
  public static final String INFO_PORT = "hbase.thrift.info.port";
  public static final String SCANNER_LEASE = "hbase.client.scanner.timeout.period";

  public ThriftGatewayOptions {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException(PORT + " must be 0..65535, not " + port);
    }
    if (minWorkers < 1 || maxWorkers < minWorkers) {
      throw new IllegalArgumentException("worker threads need 1 <= " + MIN_WORKERS + " (" + minWorkers + ") <= "
          + MAX_WORKERS + " (" + maxWorkers + ")");
    }
    if (maxFrameBytes < 1) {
      throw new IllegalArgumentException(MAX_FRAME_MB + " must be positive");
    }
  }

  /** HBase's defaults: 0.0.0.0:9090, buffered transport, binary protocol, 2 MB frames, /metrics on 9095. */
  public static ThriftGatewayOptions from(Configuration conf) {
    return new ThriftGatewayOptions(conf.get(BIND, "0.0.0.0"), conf.getInt(PORT, 9090), conf.getBoolean(FRAMED, false),
        conf.getInt(MAX_FRAME_MB, 2) * 1024 * 1024, conf.getBoolean(COMPACT, false), conf.getInt(MIN_WORKERS, 16),
        conf.getInt(MAX_WORKERS, 1000), conf.getInt(INFO_PORT, 9095), conf.getLong(SCANNER_LEASE, 60_000));
  }

  public String describe() {
    return (framed ? "framed" : "buffered") + " transport, " + (compact ? "compact" : "binary") + " protocol";
  }
}
