package io.basalt.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;

/**
 * Sends a connection's last reply (a fatal error) and closes it so the peer reads that reply. Closing a socket whose
 * peer's bytes are still unread makes the kernel answer with a reset, which can reach the client before, or instead
 * of, the reply (a client that wrote a whole oversized frame sees "Connection reset"). So: write the reply, end our
 * side of the stream, then read and drop whatever the peer still sends until it closes or a short linger passes.
 */
final class LastReply {
  static final long LINGER_MILLIS = 2_000;

  private LastReply() {}

  static void send(ChannelHandlerContext ctx, ByteBuf reply) {
    Channel channel = ctx.channel();
    ctx.writeAndFlush(reply).addListener(written -> {
      if (!written.isSuccess() || !(channel instanceof DuplexChannel duplex) || !channel.isActive()) {
        channel.close();
        return;
      }
      // Nothing after this point may reach the protocol handlers: drop input at the head of the pipeline.
      channel.pipeline().addFirst(new Discard());
      duplex.shutdownOutput().addListener(ended -> {
        channel.eventLoop().schedule(() -> channel.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
        channel.config().setAutoRead(true);
        channel.read();
      });
    });
  }

  /** Drops every inbound message; the peer's close (end of stream) closes the channel as usual. */
  private static final class Discard extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {}

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
