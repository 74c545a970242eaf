package io.basalt.server.rpc;

import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;

/** What {@link FrameDecoder} makes of a connection's bytes. */
sealed interface RpcEvent {
  /** A 2.6 client asking for the cluster id before its real connection ({@code "Regist"}). */
  record RegistryPreamble() implements RpcEvent {}

  /** The first six bytes were not a preamble this server speaks. */
  record BadPreamble(String received) implements RpcEvent {}

  record Header(ConnectionHeader header) implements RpcEvent {}

  /** One request frame, without its length prefix. */
  record Request(byte[] frame) implements RpcEvent {}

  /** A frame longer than the limit; {@code head} is what had arrived of it, to find its call id. */
  record TooBig(int length, byte[] head) implements RpcEvent {}
}
