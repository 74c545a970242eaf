package io.basalt.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;

/**
 * Splits a connection's bytes into HBase RPC units: a 6-byte preamble ({@code "HBas" 00 50} for SIMPLE
 * auth, or 2.6's {@code "Regist"}), a length-prefixed {@code ConnectionHeader}, then length-prefixed request
 * frames. All lengths are big-endian int32. A frame over the limit is reported, not buffered.
 */
final class FrameDecoder extends ByteToMessageDecoder {
  static final byte[] HBASE_PREAMBLE = {'H', 'B', 'a', 's', 0, 0x50};
  static final byte[] HBASE_PREAMBLE_PREFIX = {'H', 'B', 'a', 's'};
  static final byte[] REGISTRY_PREAMBLE = {'R', 'e', 'g', 'i', 's', 't'};
  private static final int MAX_HEADER_BYTES = 1 << 16;

  private enum State { PREAMBLE, HEADER, FRAMES, DONE }

  private final int maxRequestBytes;
  private State state = State.PREAMBLE;

  FrameDecoder(int maxRequestBytes) {
    this.maxRequestBytes = maxRequestBytes;
  }

  /** After a SASL preamble and exchange ({@link SaslServerHandler}) the connection header comes next. */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof SaslServerHandler.Established && state == State.PREAMBLE) {
      state = State.HEADER;
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
    switch (state) {
      case PREAMBLE -> {
        if (in.readableBytes() < 6) {
          return;
        }
        byte[] p = new byte[6];
        in.readBytes(p);
        if (java.util.Arrays.equals(p, HBASE_PREAMBLE)) {
          state = State.HEADER;
        } else if (java.util.Arrays.equals(p, REGISTRY_PREAMBLE)) {
          state = State.DONE;
          out.add(new RpcEvent.RegistryPreamble());
        } else {
          state = State.DONE;
          out.add(new RpcEvent.BadPreamble(printable(p)));
        }
      }
      case HEADER -> {
        if (in.readableBytes() < 4) {
          return;
        }
        int len = in.getInt(in.readerIndex());
        if (len < 0 || len > MAX_HEADER_BYTES) {
          state = State.DONE;
          out.add(new RpcEvent.BadPreamble("connection header of " + len + " bytes"));
          return;
        }
        if (in.readableBytes() < 4 + len) {
          return;
        }
        in.skipBytes(4);
        byte[] h = new byte[len];
        in.readBytes(h);
        state = State.FRAMES;
        out.add(new RpcEvent.Header(ConnectionHeader.parseFrom(h)));
      }
      case FRAMES -> {
        if (in.readableBytes() < 4) {
          return;
        }
        int len = in.getInt(in.readerIndex());
        if (len < 0 || len > maxRequestBytes) {
          if (in.readableBytes() < 5) {
            return;
          }
          in.skipBytes(4);
          byte[] head = new byte[Math.min(in.readableBytes(), 4096)];
          in.readBytes(head);
          state = State.DONE;
          out.add(new RpcEvent.TooBig(len, head));
          return;
        }
        if (in.readableBytes() < 4 + len) {
          return;
        }
        in.skipBytes(4);
        byte[] frame = new byte[len];
        in.readBytes(frame);
        out.add(new RpcEvent.Request(frame));
      }
      case DONE -> in.skipBytes(in.readableBytes());
    }
  }

  private static String printable(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(x >= 32 && x < 127 ? String.valueOf((char) x) : String.format("\\x%02X", x & 0xFF));
    }
    return new String(sb.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
  }
}
