package io.basalt.server.rpc;

import io.basalt.server.security.SaslExchange;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * A connection whose SASL negotiation chose integrity or privacy: every write leaves as {@code int32 len |
 * wrapped bytes}, every such frame that arrives is unwrapped and handed on as plain stream bytes (HBase's
 * SaslWrapHandler and SaslUnwrapHandler do the same on the client).
 */
final class SaslWrapping {
  private SaslWrapping() {}

  static final class Wrap extends MessageToByteEncoder<ByteBuf> {
    private final SaslExchange sasl;

    Wrap(SaslExchange sasl) {
      this.sasl = sasl;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf msg, ByteBuf out) throws Exception {
      byte[] plain = new byte[msg.readableBytes()];
      msg.readBytes(plain);
      byte[] wrapped = sasl.wrap(plain);
      out.writeInt(wrapped.length).writeBytes(wrapped);
    }
  }

  /** Takes the frames a LengthFieldBasedFrameDecoder cut (length stripped). */
  static final class Unwrap extends MessageToMessageDecoder<ByteBuf> {
    private final SaslExchange sasl;

    Unwrap(SaslExchange sasl) {
      this.sasl = sasl;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) throws Exception {
      byte[] wrapped = new byte[msg.readableBytes()];
      msg.readBytes(wrapped);
      out.add(Unpooled.wrappedBuffer(sasl.unwrap(wrapped)));
    }
  }
}
