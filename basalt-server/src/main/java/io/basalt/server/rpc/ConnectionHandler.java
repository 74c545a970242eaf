package io.basalt.server.rpc;

import io.basalt.server.security.Authentication;
import io.basalt.server.security.MemberHandshakeHandler;
import io.basalt.server.security.ServerSecurity;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.exceptions.RequestTooBigException;
import org.apache.hadoop.hbase.CallQueueTooBigException;
import org.apache.hadoop.hbase.ipc.FatalConnectionException;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ResponseHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetConnectionRegistryResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: accepts the preamble and header, then runs each request on the handler pool and
 * writes its response when done, so responses may leave out of order (matched by call id). Anything
 * malformed closes this connection only.
 */
final class ConnectionHandler extends SimpleChannelInboundHandler<RpcEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);

  private final CallDispatcher dispatcher;
  private final Executor handlers;
  private final Supplier<String> clusterId;
  private final int maxRequestBytes;
  private final Authentication auth;
  private SaslServerHandler.Established established;
  private String service;
  private Caller caller = Caller.ANONYMOUS;
  private boolean cellBlocks;
  /** Set when the connection is being closed for a fatal error: nothing it sends after that is run. */
  private boolean refused;

  ConnectionHandler(CallDispatcher dispatcher, Executor handlers, Supplier<String> clusterId, int maxRequestBytes,
      Authentication auth) {
    this.auth = auth;
    this.dispatcher = dispatcher;
    this.handlers = handlers;
    this.clusterId = clusterId;
    this.maxRequestBytes = maxRequestBytes;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, RpcEvent event) {
    if (refused) {
      return;
    }
    if (event instanceof RpcEvent.Request r) {
      run(ctx, r.frame());
    } else if (event instanceof RpcEvent.Header h) {
      acceptHeader(ctx, h.header());
    } else if (event instanceof RpcEvent.RegistryPreamble) {
      answerRegistry(ctx);
    } else if (event instanceof RpcEvent.BadPreamble b) {
      fatal(ctx, new FatalConnectionException("Expected HEADER=HBas\\x00\\x50 but received HEADER=" + b.received()));
    } else if (event instanceof RpcEvent.TooBig t) {
      int callId = CallDispatcher.callIdOf(t.head());
      RequestTooBigException e = new RequestTooBigException("RPC data length of " + Integer.toUnsignedLong(t.length())
          + " received from " + ctx.channel().remoteAddress() + " is greater than max allowed " + maxRequestBytes
          + ". Set \"hbase.ipc.max.request.size\" on server to override this limit (not recommended)");
      LastReply.send(ctx, Unpooled.wrappedBuffer(Responses.error(callId, e)));
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof SaslServerHandler.Established e) {
      established = e;
    }
    super.userEventTriggered(ctx, evt);
  }

  private void acceptHeader(ChannelHandlerContext ctx, ConnectionHeader header) {
    service = header.getServiceName();
    // TLS, the member handshake and SASL are complete by the time a header arrives.
    try {
      caller = CallerIdentity.of(header, established, auth, MemberHandshakeHandler.isMember(ctx.channel()),
          ServerSecurity.tlsPeer(ctx.pipeline()),
          ctx.channel().remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null);
    } catch (AccessDeniedException e) {
      fatalDenied(ctx, e);
      return;
    }
    String codec = header.hasCellBlockCodecClass() ? header.getCellBlockCodecClass() : "";
    if (!codec.isEmpty() && !codec.equals(CellBlocks.KEY_VALUE_CODEC)) {
      fatal(ctx, new FatalConnectionException("Unsupported cell block codec " + codec + "; Basalt speaks "
          + CellBlocks.KEY_VALUE_CODEC + " or none"));
      return;
    }
    if (header.hasCellBlockCompressorClass() && !header.getCellBlockCompressorClass().isEmpty()) {
      fatal(ctx, new FatalConnectionException("Unsupported cell block compressor " + header.getCellBlockCompressorClass()));
      return;
    }
    if (!dispatcher.accepts(service)) {
      fatal(ctx, new FatalConnectionException("Unknown service " + service));
      return;
    }
    cellBlocks = !codec.isEmpty();
  }

  private void run(ChannelHandlerContext ctx, byte[] frame) {
    String svc = service;
    boolean blocks = cellBlocks;
    Caller who = caller;
    try {
      handlers.execute(() -> {
        ctx.writeAndFlush(dispatcher.dispatch(svc, frame, blocks, who, ctx.alloc()));
      });
    } catch (RejectedExecutionException e) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(Responses.error(CallDispatcher.callIdOf(frame),
          new CallQueueTooBigException("server is shutting down or overloaded"))));
    }
  }

  /** The 2.6 registry preamble is answered with the cluster id in a call id -1 frame, then closed. */
  private void answerRegistry(ChannelHandlerContext ctx) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ResponseHeader.newBuilder().setCallId(-1).build().writeDelimitedTo(out);
      GetConnectionRegistryResponse.newBuilder().setClusterId(clusterId.get()).build().writeDelimitedTo(out);
      ByteBuffer frame = ByteBuffer.allocate(4 + out.size());
      frame.putInt(out.size()).put(out.toByteArray());
      LastReply.send(ctx, Unpooled.wrappedBuffer(frame.array()));
    } catch (IOException e) {
      ctx.close();
    }
  }

  private void fatalDenied(ChannelHandlerContext ctx, AccessDeniedException e) {
    refused = true;
    LOG.info("refused {}: {}", ctx.channel().remoteAddress(), e.getMessage());
    LastReply.send(ctx, Unpooled.wrappedBuffer(Responses.error(-1, e)));
  }

  private void fatal(ChannelHandlerContext ctx, FatalConnectionException e) {
    refused = true;
    LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), e.getMessage());
    LastReply.send(ctx, Unpooled.wrappedBuffer(Responses.error(-1, e)));
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("closing {} after {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
