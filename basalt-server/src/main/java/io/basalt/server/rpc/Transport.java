package io.basalt.server.rpc;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * The socket layer of the RPC ports: Linux's epoll where Netty's native library loads (as HBase's
 * {@code hbase.netty.nativetransport}), else the JDK's selector. A call crosses threads twice (to a handler
 * and back to the event loop); epoll's eventfd wakeups and edge-triggered reads cost fewer syscalls per crossing.
 */
enum Transport {
  EPOLL, NIO;

  /** Epoll where Netty's native library loads here, else NIO. */
  static Transport choose() {
    return Epoll.isAvailable() ? EPOLL : NIO;
  }

  EventLoopGroup group(int threads) {
    return this == EPOLL ? new EpollEventLoopGroup(threads) : new NioEventLoopGroup(threads);
  }

  Class<? extends ServerChannel> serverChannel() {
    return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }
}
