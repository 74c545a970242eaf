package io.basalt.server.rpc;

import io.basalt.server.security.Authentication;
import io.basalt.server.security.MemberHandshakeHandler;
import io.basalt.server.security.SaslExchange;
import io.basalt.server.security.ServerSecurity;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.ipc.SecurityNotEnabledException;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.SecurityPreamableResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start of a client connection as HBase 2.6's server reads it, before {@link FrameDecoder}: the
 * preamble's auth byte (80 SIMPLE, 81 Kerberos, 82 token) and, for SASL, the exchange of raw tokens ({@code
 * int32 len | token} from the client; {@code int32 0 | int32 len | token} back, or {@code int32 1 | class |
 * message} on failure, then close). Also answers the security preamble ({@code "Securi"}: which principal
 * to use). SIMPLE with authentication required is refused (or anonymous, by setting); SASL without security
 * tells the client to fall back to SIMPLE. Once done it removes itself, installs the wrapping the negotiated
 * quality of protection needs, and tells {@link FrameDecoder} the preamble is behind it.
 */
final class SaslServerHandler extends ByteToMessageDecoder {
  private static final Logger LOG = LoggerFactory.getLogger(SaslServerHandler.class);
  private static final byte[] SECURITY_PREAMBLE = {'S', 'e', 'c', 'u', 'r', 'i'};
  private static final int SIMPLE = 80;
  private static final int MAX_TOKEN_BYTES = 1 << 20;
  /** HBase's SaslUtil.SWITCH_TO_SIMPLE_AUTH. */
  private static final int SWITCH_TO_SIMPLE = -88;

  /** What the transport established, sent down the pipeline before any byte of the connection header. */
  record Established(String user, boolean kerberos) {}

  private enum State { PREAMBLE, SKIP_INITIAL_TOKEN, SASL, FAILED }

  private final Authentication auth;
  private final int maxRequestBytes;
  private State state = State.PREAMBLE;
  private SaslExchange exchange;

  SaslServerHandler(Authentication auth, int maxRequestBytes) {
    this.auth = auth;
    this.maxRequestBytes = maxRequestBytes;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
    switch (state) {
      case PREAMBLE -> preamble(ctx, in);
      case SKIP_INITIAL_TOKEN -> {
        ByteBuf token = token(ctx, in);
        if (token != null) {
          token.release();
          done(ctx, null);
        }
      }
      case FAILED -> in.skipBytes(in.readableBytes()); // nothing after a refusal may reach the RPC layer
      case SASL -> {
        ByteBuf token = token(ctx, in);
        if (token != null) {
          try {
            byte[] t = new byte[token.readableBytes()];
            token.readBytes(t);
            exchange(ctx, t);
          } finally {
            token.release();
          }
        }
      }
    }
  }

  private void preamble(ChannelHandlerContext ctx, ByteBuf in) throws IOException {
    if (in.readableBytes() < 6) {
      return;
    }
    int at = in.readerIndex();
    if (startsWith(in, SECURITY_PREAMBLE)) {
      in.skipBytes(6);
      String principal = auth.principal();
      ByteBuf answer = principal != null
          ? Responses.success(ctx.alloc(), -1, SecurityPreamableResponse.newBuilder().setServerPrincipal(principal).build(),
              List.of())
          : Unpooled.wrappedBuffer(Responses.error(-1, new SecurityNotEnabledException()));
      ctx.writeAndFlush(answer); // the real preamble follows on this connection
      return;
    }
    boolean hbas = startsWith(in, FrameDecoder.HBASE_PREAMBLE_PREFIX) && in.getByte(at + 4) == 0;
    int authByte = in.getByte(at + 5) & 0xFF;
    if (!hbas || authByte == SIMPLE) {
      if (hbas && auth.required() && !mayStaySimple(ctx)) {
        in.skipBytes(in.readableBytes());
        refuse(ctx, new AccessDeniedException("Authentication is required"));
        return;
      }
      ctx.pipeline().remove(this); // FrameDecoder reads the preamble (SIMPLE, registry, or a bad one)
      return;
    }
    in.skipBytes(6);
    if (!auth.required()) {
      // As HBase's server: no security here, so the client drops SASL (if it may) and sends its header.
      ctx.writeAndFlush(Unpooled.buffer(8).writeInt(0).writeInt(SWITCH_TO_SIMPLE));
      state = State.SKIP_INITIAL_TOKEN;
      return;
    }
    try {
      exchange = auth.start(authByte);
    } catch (IOException e) {
      saslFailed(ctx, e);
      return;
    }
    state = State.SASL;
  }

  /** An unauthenticated SIMPLE connection is let in only as a member, by certificate, or anonymously. */
  private boolean mayStaySimple(ChannelHandlerContext ctx) {
    return MemberHandshakeHandler.isMember(ctx.channel()) || auth.anonymousFallback()
        || (auth.certificateUsers() && ServerSecurity.tlsPeer(ctx.pipeline()) != null);
  }

  /** One length-prefixed SASL token, or null until it has all arrived. */
  private ByteBuf token(ChannelHandlerContext ctx, ByteBuf in) {
    if (in.readableBytes() < 4) {
      return null;
    }
    int len = in.getInt(in.readerIndex());
    if (len < 0 || len > MAX_TOKEN_BYTES) {
      in.skipBytes(in.readableBytes());
      saslFailed(ctx, new IOException("SASL token of " + len + " bytes (at most " + MAX_TOKEN_BYTES + ")"));
      return null;
    }
    if (in.readableBytes() < 4 + len) {
      return null;
    }
    in.skipBytes(4);
    return in.readRetainedSlice(len);
  }

  private void exchange(ChannelHandlerContext ctx, byte[] token) {
    try {
      byte[] reply = exchange.evaluate(token);
      if (reply != null) {
        ctx.writeAndFlush(Unpooled.buffer(8 + reply.length).writeInt(0).writeInt(reply.length).writeBytes(reply));
      }
      if (!exchange.complete()) {
        return;
      }
      String user = exchange.user();
      LOG.debug("{} authenticated as {} ({}, qop {})", ctx.channel().remoteAddress(), user,
          exchange.kerberos() ? "Kerberos" : "token", exchange.qop());
      if (exchange.wraps()) {
        SaslExchange wrapping = exchange;
        ctx.pipeline().addAfter(ctx.name(), "sasl-wrap", new SaslWrapping.Wrap(wrapping))
            .addAfter(ctx.name(), "sasl-unwrap", new SaslWrapping.Unwrap(wrapping))
            .addAfter(ctx.name(), "sasl-frames", new LengthFieldBasedFrameDecoder(maxRequestBytes + (1 << 16), 0, 4, 0, 4));
        ctx.channel().closeFuture().addListener(f -> wrapping.dispose());
      } else {
        exchange.dispose();
      }
      done(ctx, new Established(user, exchange.kerberos()));
    } catch (IOException | RuntimeException e) {
      saslFailed(ctx, e);
    }
  }

  /** Tells FrameDecoder and ConnectionHandler the preamble is consumed, then hands on what follows. */
  private void done(ChannelHandlerContext ctx, Established who) {
    ctx.fireUserEventTriggered(who == null ? new Established(null, false) : who);
    ctx.pipeline().remove(this);
  }

  private void refuse(ChannelHandlerContext ctx, IOException e) {
    state = State.FAILED;
    LOG.debug("refused {}: {}", ctx.channel().remoteAddress(), e.getMessage());
    ctx.channel().config().setAutoRead(false);
    LastReply.send(ctx, Unpooled.wrappedBuffer(Responses.error(-1, e)));
  }

  /** HBase's SASL error reply (status 1, class name, message as Hadoop writes strings), then close. */
  private void saslFailed(ChannelHandlerContext ctx, Throwable e) {
    Throwable cause = e instanceof IOException && e.getCause() instanceof IOException io
        && !(e instanceof AccessDeniedException) ? io : e;
    state = State.FAILED;
    LOG.info("SASL authentication of {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    if (exchange != null) {
      exchange.dispose();
    }
    ctx.channel().config().setAutoRead(false);
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(1);
      writeString(out, cause.getClass().getName());
      String message = cause.getMessage();
      writeString(out, message == null || message.isEmpty() ? cause.getClass().getSimpleName() : message);
      LastReply.send(ctx, Unpooled.wrappedBuffer(bytes.toByteArray()));
    } catch (IOException impossible) {
      ctx.close();
    }
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static boolean startsWith(ByteBuf in, byte[] prefix) {
    for (int i = 0; i < prefix.length; i++) {
      if (in.getByte(in.readerIndex() + i) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("closing {} during authentication: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
