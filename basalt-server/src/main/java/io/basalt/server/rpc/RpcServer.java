package io.basalt.server.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.basalt.server.security.ServerSecurity;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** An HBase-protocol RPC endpoint on one port, serving whatever services its dispatcher has. */
public final class RpcServer implements AutoCloseable {
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final HandlerPool handlers;
  private final Channel channel;

  /**
   * @param limits threads running calls, and the largest request read
   * @param security TLS on this port and the cluster secret members prove
   */
  public RpcServer(String name, InetSocketAddress bind, CallDispatcher dispatcher, Supplier<String> clusterId,
      RpcLimits limits, ServerSecurity security) throws InterruptedException {
    int maxRequestBytes = limits.maxRequestBytes();
    handlers = new HandlerPool(name, limits.handlers(), 10_000);
    Transport transport = Transport.choose();
    boss = transport.group(1);
    workers = transport.group(2);
    ServerBootstrap b = new ServerBootstrap()
        .group(boss, workers)
        .channel(transport.serverChannel())
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            security.initServerPipeline(ch); // TLS and the member handshake come before any HBase bytes
            ch.pipeline().addLast("sasl", new SaslServerHandler(security.authentication(), maxRequestBytes));
            ch.pipeline().addLast(new FrameDecoder(maxRequestBytes),
                new ConnectionHandler(dispatcher, handlers, clusterId, maxRequestBytes, security.authentication()));
          }
        });
    channel = b.bind(bind).sync().channel();
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    handlers.close();
    try {
      handlers.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
