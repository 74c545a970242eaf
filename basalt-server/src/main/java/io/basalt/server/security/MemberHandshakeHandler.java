package io.basalt.server.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.AttributeKey;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepting side of {@link MemberHandshake} on a Netty port shared with clients: a connection that
 * opens with {@link MemberHandshake#MAGIC} must complete it (and is then marked a cluster member), any
 * other connection passes through unmarked. Either way this handler then leaves the pipeline, handing on
 * the bytes that followed.
 */
public final class MemberHandshakeHandler extends ByteToMessageDecoder {
  private static final Logger LOG = LoggerFactory.getLogger(MemberHandshakeHandler.class);
  private static final AttributeKey<Boolean> MEMBER = AttributeKey.valueOf("basalt.cluster.member");

  private enum State { FIRST_BYTES, CLIENT_HELLO, CLIENT_PROOF }

  private final ClusterSecret secret;
  private State state = State.FIRST_BYTES;
  private byte[] clientNonce;
  private byte[] serverNonce;

  public MemberHandshakeHandler(ClusterSecret secret) {
    this.secret = secret;
  }

  /** Whether the connection proved it is a master or region server of this cluster. */
  public static boolean isMember(Channel channel) {
    return Boolean.TRUE.equals(channel.attr(MEMBER).get());
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    switch (state) {
      case FIRST_BYTES -> {
        if (in.readableBytes() < MemberHandshake.MAGIC.length) {
          return;
        }
        for (int i = 0; i < MemberHandshake.MAGIC.length; i++) {
          if (in.getByte(in.readerIndex() + i) != MemberHandshake.MAGIC[i]) {
            ctx.pipeline().remove(this); // an ordinary client: its bytes go on to the RPC decoder
            return;
          }
        }
        in.skipBytes(MemberHandshake.MAGIC.length);
        state = State.CLIENT_HELLO;
      }
      case CLIENT_HELLO -> {
        if (in.readableBytes() < 1 + MemberHandshake.NONCE_BYTES) {
          return;
        }
        int version = in.readUnsignedByte();
        clientNonce = new byte[MemberHandshake.NONCE_BYTES];
        in.readBytes(clientNonce);
        if (version != MemberHandshake.VERSION) {
          refuse(ctx, "handshake version " + version);
          return;
        }
        serverNonce = ClusterSecret.nonce();
        ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {MemberHandshake.CONTINUE}, serverNonce,
            MemberHandshake.serverProof(secret, clientNonce, serverNonce)));
        state = State.CLIENT_PROOF;
      }
      case CLIENT_PROOF -> {
        if (in.readableBytes() < MemberHandshake.PROOF_BYTES) {
          return;
        }
        byte[] proof = new byte[MemberHandshake.PROOF_BYTES];
        in.readBytes(proof);
        if (!secret.verify(MemberHandshake.clientProof(secret, serverNonce, clientNonce), proof)) {
          refuse(ctx, "a wrong proof (another cluster's secret?)");
          return;
        }
        ctx.channel().attr(MEMBER).set(true);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {MemberHandshake.ACCEPTED}));
        ctx.pipeline().remove(this);
      }
    }
  }

  private void refuse(ChannelHandlerContext ctx, String why) {
    LOG.warn("refused a cluster member connection from {}: {}", ctx.channel().remoteAddress(), why);
    ctx.close();
  }
}
