package io.basalt.server.rpc;

/**
 * How many calls an RPC server runs at once ({@code handlers}, HBase's {@code hbase.regionserver.handler.count} and
 * {@code hbase.master.handler.count}) and the largest request it reads ({@code maxRequestBytes},
 * {@code hbase.ipc.max.request.size}; a larger one is refused with RequestTooBigException).
 */
public record RpcLimits(int handlers, int maxRequestBytes) {
  public RpcLimits {
    if (handlers < 1 || maxRequestBytes < 1) {
      throw new IllegalArgumentException("handlers and maxRequestBytes must be positive");
    }
  }
}
