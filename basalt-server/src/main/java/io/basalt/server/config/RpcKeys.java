package io.basalt.server.config;

/** How many calls a server runs at once, and how large a request it takes. */
public final class RpcKeys {
  private RpcKeys() {}

  public static final ConfigKey<Integer> REGIONSERVER_HANDLERS = ConfigKey.integer("hbase.regionserver.handler.count",
      30, 1, 1_000, "Threads of a region server that run client calls; calls beyond them wait in a queue. Raise it "
          + "for many clients whose reads go to disk (HBase's key and default).");

  public static final ConfigKey<Integer> MASTER_HANDLERS = ConfigKey.integer("hbase.master.handler.count", 25, 1,
      1_000, "Threads of a master that run calls (admin operations, hbase:meta lookups, region servers' reports; "
          + "HBase's key and default).");

  public static final ConfigKey<Long> MAX_REQUEST_SIZE = ConfigKey.bytes("hbase.ipc.max.request.size", 256L << 20,
      1L << 10, Integer.MAX_VALUE, "Largest request a server reads, in bytes; a larger one is answered with "
          + "RequestTooBigException and its connection closed, before its body is buffered (HBase's key and "
          + "default).");
}
