package io.basalt.storage.je;

import com.sleepycat.je.rep.ReplicationNetworkConfig;
import com.sleepycat.je.rep.net.DataChannel;
import com.sleepycat.je.rep.net.DataChannelFactory;
import com.sleepycat.je.rep.net.InstanceParams;
import com.sleepycat.je.rep.utilint.RepUtils;
import io.basalt.storage.replication.ChannelGuard;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * JE's replication connections (feeders, elections, group admin, network restore) run through a
 * {@link ChannelGuard}: JE builds this factory by class name ({@code je.rep.channelType=custom}) with a
 * string parameter, so guards are registered here under an id, never with their secret in JE's settings.
 */
public final class GuardedChannelFactory implements DataChannelFactory {
  private static final Map<String, ChannelGuard> GUARDS = new ConcurrentHashMap<>();
  private static final AtomicInteger IDS = new AtomicInteger();

  private final ChannelGuard guard;

  /** JE's constructor: the parameter is the id of a registered guard. */
  public GuardedChannelFactory(InstanceParams params) {
    this.guard = GUARDS.get(params.getClassParams());
    if (guard == null) {
      throw new IllegalArgumentException("no replication channel guard " + params.getClassParams());
    }
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
    return new GuardedDataChannel(socketChannel, guard.admit());
  }

  @Override
  public DataChannel connect(InetSocketAddress addr, InetSocketAddress localAddr, ConnectOptions options)
      throws IOException {
    SocketChannel channel = RepUtils.openSocketChannel(addr, localAddr, options);
    try {
      guard.prove(channel);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return new GuardedDataChannel(channel, null);
  }
}
