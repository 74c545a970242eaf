package io.basalt.storage.je;

import com.sleepycat.je.rep.ReplicationNetworkConfig;
import com.sleepycat.je.rep.net.DataChannel;
import com.sleepycat.je.rep.net.DataChannelFactory;
import com.sleepycat.je.rep.net.InstanceLogger;
import com.sleepycat.je.rep.net.InstanceParams;
import com.sleepycat.je.rep.utilint.RepUtils;
import com.sleepycat.je.rep.utilint.net.SSLDataChannel;
import com.sleepycat.je.rep.utilint.net.SimpleDataChannel;
import io.basalt.storage.replication.ChannelGuard;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * JE's replication connections (feeders, elections, group admin, network restore) run through a
 * {@link ChannelGuard}: JE builds this factory by class name ({@code je.rep.channelType=custom}) with a
 * string parameter, so guards are registered here under an id, never with their secret in JE's settings.
 *
 * <p>With the guard's {@link ChannelGuard#tls()} every connection is JE's own {@link SSLDataChannel} (JE's
 * TLS framing, engines from the guard's certificates) with the guard's proof inside it: encrypted, the peer's
 * certificate checked by the TLS handshake and the guard's rule, and the proof checked by the guard.
 */
public final class GuardedChannelFactory implements DataChannelFactory {
  private static final Map<String, ChannelGuard> GUARDS = new ConcurrentHashMap<>();
  private static final AtomicInteger IDS = new AtomicInteger();

  private final ChannelGuard guard;
  private final InstanceLogger logger;

  /** JE's constructor: the parameter is the id of a registered guard. */
  public GuardedChannelFactory(InstanceParams params) {
    this.guard = GUARDS.get(params.getClassParams());
    if (guard == null) {
      throw new IllegalArgumentException("no replication channel guard " + params.getClassParams());
    }
    this.logger = params.getContext().getLoggerFactory().getLogger(GuardedChannelFactory.class);
  }

  /** JE network settings that run every connection of an environment through {@code guard}. */
  public static ReplicationNetworkConfig networkConfig(ChannelGuard guard) {
    if (guard == null) {
      return ReplicationNetworkConfig.createDefault();
    }
    String id = idOf(guard);
    Properties p = new Properties();
    p.setProperty(ReplicationNetworkConfig.CHANNEL_TYPE, "basic");
    p.setProperty(ReplicationNetworkConfig.CHANNEL_FACTORY_CLASS, GuardedChannelFactory.class.getName());
    p.setProperty(ReplicationNetworkConfig.CHANNEL_FACTORY_PARAMS, id);
    return ReplicationNetworkConfig.create(p);
  }

  private static String idOf(ChannelGuard guard) {
    for (Map.Entry<String, ChannelGuard> e : GUARDS.entrySet()) {
      if (e.getValue() == guard) {
        return e.getKey();
      }
    }
    String id = "guard-" + IDS.incrementAndGet();
    GUARDS.put(id, guard);
    return id;
  }

  @Override
  public DataChannel acceptChannel(SocketChannel socketChannel) {
    ChannelGuard.Tls tls = guard.tls();
    DataChannel inner = tls == null ? new SimpleDataChannel(socketChannel)
        : new SSLDataChannel(socketChannel, tls.acceptEngine((InetSocketAddress) socketChannel.socket()
            .getRemoteSocketAddress()), null, null, tls::trusted, logger);
    return new GuardedDataChannel(inner, guard.admit());
  }

  @Override
  public DataChannel connect(InetSocketAddress addr, InetSocketAddress localAddr, ConnectOptions options)
      throws IOException {
    SocketChannel channel = RepUtils.openSocketChannel(addr, localAddr, options);
    try {
      ChannelGuard.Tls tls = guard.tls();
      Socket socket = channel.socket();
      if (tls == null) {
        // The socket's streams, not the channel: a blocking channel ignores the socket's read timeout.
        guard.prove(streams(socket), socket);
        return new GuardedDataChannel(new SimpleDataChannel(channel), null);
      }
      // JE's TLS channel reads a blocking socket through its stream, so the timeout holds there too.
      SSLDataChannel ssl = new SSLDataChannel(channel, tls.connectEngine(addr), addr.getHostString(), null, null,
          logger);
      guard.prove(ssl, socket);
      return new GuardedDataChannel(ssl, null);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static ByteChannel streams(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    OutputStream out = socket.getOutputStream();
    ReadableByteChannel r = Channels.newChannel(in);
    WritableByteChannel w = Channels.newChannel(out);
    return new ByteChannel() {
      @Override
      public int read(ByteBuffer dst) throws IOException {
        return r.read(dst);
      }

      @Override
      public int write(ByteBuffer src) throws IOException {
        return w.write(src);
      }

      @Override
      public boolean isOpen() {
        return !socket.isClosed();
      }

      @Override
      public void close() throws IOException {
        socket.close();
      }
    };
  }
}
