package io.basalt.server.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.AttributeKey;
import java.io.IOException;
import java.nio.ByteBuffer;
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

  private final ClusterSecret secret;
  private final MemberCertificateRule rule;
  private MemberAdmission admission;

  public MemberHandshakeHandler(ClusterSecret secret) {
    this(secret, MemberCertificateRule.ANY);
  }

  /**
   * With a restricting {@code rule}, the connection's verified TLS client certificate must match it too:
   * the secret alone does not make a member.
   */
  public MemberHandshakeHandler(ClusterSecret secret, MemberCertificateRule rule) {
    this.secret = secret;
    this.rule = rule;
  }

  /** Whether the connection proved it is a master or region server of this cluster. */
  public static boolean isMember(Channel channel) {
    return Boolean.TRUE.equals(channel.attr(MEMBER).get());
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (admission == null) {
      if (in.readableBytes() < MemberHandshake.MAGIC.length) {
        return;
      }
      for (int i = 0; i < MemberHandshake.MAGIC.length; i++) {
        if (in.getByte(in.readerIndex() + i) != MemberHandshake.MAGIC[i]) {
          ctx.pipeline().remove(this); // an ordinary client: its bytes go on to the RPC decoder
          return;
        }
      }
      admission = new MemberAdmission(secret);
    }
    ByteBuffer view = in.nioBuffer();
    int before = view.position();
    ByteBuffer reply;
    try {
      reply = admission.consume(view);
    } catch (IOException refused) {
      LOG.warn("refused a cluster member connection from {}: {}", ctx.channel().remoteAddress(), refused.getMessage());
      in.skipBytes(in.readableBytes());
      ctx.close();
      return;
    }
    in.skipBytes(view.position() - before);
    if (reply.hasRemaining()) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(reply));
    }
    if (admission.admitted()) {
      if (rule.restricts() && !rule.matches(ServerSecurity.tlsPeer(ctx.pipeline()))) {
        LOG.warn("refused a cluster member connection from {}: it proved the cluster secret but its TLS "
            + "certificate ({}) is not a member's (basalt.member.tls.subject)", ctx.channel().remoteAddress(),
            ServerSecurity.tlsPeer(ctx.pipeline()));
        ctx.close();
        return;
      }
      ctx.channel().attr(MEMBER).set(true);
      ctx.pipeline().remove(this);
    }
  }
}
