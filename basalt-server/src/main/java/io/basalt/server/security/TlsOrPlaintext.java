package io.basalt.server.security;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import java.util.List;
import java.util.function.Supplier;

/**
 * One port for TLS and plaintext ({@code hbase.server.netty.tls.supportplaintext}): looks at the first
 * record header a connection sends; a TLS handshake record gets an {@link SslHandler} in this handler's
 * place, anything else (HBase's "HBas" preamble, a member handshake) goes on in the clear.
 */
final class TlsOrPlaintext extends ByteToMessageDecoder {
  /** A TLS record header is 5 bytes: type, version (2), length (2). */
  private static final int RECORD_HEADER = 5;

  private final Supplier<SslHandler> newSslHandler;

  TlsOrPlaintext(Supplier<SslHandler> newSslHandler) {
    this.newSslHandler = newSslHandler;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.readableBytes() < RECORD_HEADER) {
      return;
    }
    if (SslHandler.isEncrypted(in)) {
      ctx.pipeline().replace(this, "tls", newSslHandler.get());
    } else {
      ctx.pipeline().remove(this);
    }
  }
}
