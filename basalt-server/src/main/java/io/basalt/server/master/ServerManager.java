package io.basalt.server.master;

import io.basalt.server.control.RegionServerControl;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.ipc.ServerNotRunningYetException;
import org.apache.hadoop.hbase.net.Address;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The region servers the master knows to be alive (their ZooKeeper registrations), each with the channel
 * the master drives it through; since when each missing one has been gone; and which ones are
 * decommissioned (no new regions or members). Servers are matched by address where a restart must not
 * matter: a server back under a new start code is the same server with the same disk.
 */
public final class ServerManager {
  private static final Logger LOG = LoggerFactory.getLogger(ServerManager.class);

  private final Function<ServerName, RegionServerControl> connector;
  private final LongSupplier clock;
  private final Map<ServerName, RegionServerControl> live = new ConcurrentHashMap<>();
  private final Map<Address, Long> downSince = new ConcurrentHashMap<>();
  /** Decommissioned servers by address, each with whether its regions and members are to be moved away. */
  private volatile Map<Address, Boolean> decommissioned = Map.of();

  public ServerManager(Function<ServerName, RegionServerControl> connector) {
    this(connector, System::currentTimeMillis);
  }

  public ServerManager(Function<ServerName, RegionServerControl> connector, LongSupplier clock) {
    this.connector = connector;
    this.clock = clock;
  }

  /** A server registered; an older incarnation at the same address is dead (it restarted). */
  void up(ServerName server) {
    live.keySet().removeIf(s -> s.getAddress().equals(server.getAddress()) && s.getStartCode() < server.getStartCode());
    live.computeIfAbsent(server, connector);
    downSince.remove(server.getAddress());
  }

  void down(ServerName server) {
    live.remove(server);
    if (liveAt(server).isEmpty()) {
      downSince.putIfAbsent(server.getAddress(), clock.getAsLong());
    }
  }

  /**
   * Starts the clock for a server the catalog names that is not live and that this master never saw go
   * (it was down before this master became active): gone since now, at the latest.
   */
  void noticeMissing(ServerName server) {
    if (server != null && liveAt(server).isEmpty()) {
      downSince.putIfAbsent(server.getAddress(), clock.getAsLong());
    }
  }

  /** Since when (ms, this master's clock) each server that is not live has been gone. */
  public Map<Address, Long> downSince() {
    return new HashMap<>(downSince);
  }

  long now() {
    return clock.getAsLong();
  }

  public List<ServerName> live() {
    List<ServerName> out = new ArrayList<>(live.keySet());
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** Live servers that may take new regions and members (not decommissioned). */
  public List<ServerName> placeable() {
    return live().stream().filter(s -> !isDecommissioned(s)).toList();
  }

  public boolean isLive(ServerName server) {
    return server != null && live.containsKey(server);
  }

  public boolean isDecommissioned(ServerName server) {
    return server != null && decommissioned.containsKey(server.getAddress());
  }

  /** Decommissioned servers by address: true where their regions and members are to be moved away. */
  public Map<Address, Boolean> decommissioned() {
    return decommissioned;
  }

  void setDecommissioned(Map<Address, Boolean> servers) {
    decommissioned = Map.copyOf(servers);
  }

  /** The live server at the same host and port (a restart gives a server a new start code). */
  public Optional<ServerName> liveAt(ServerName server) {
    if (server == null) {
      return Optional.empty();
    }
    return live.keySet().stream().filter(s -> s.getAddress().equals(server.getAddress())).findFirst();
  }

  public RegionServerControl control(ServerName server) throws IOException {
    RegionServerControl c = live.get(server);
    if (c == null) {
      throw new ServerNotRunningYetException("region server " + server + " is not online");
    }
    return c;
  }

  /** Which live server holds which region directory (asked of each server). */
  Map<String, ServerName> storedRegions() {
    Map<String, ServerName> out = new HashMap<>();
    for (ServerName s : live()) {
      try {
        for (String encoded : control(s).storedRegions()) {
          out.put(encoded, s);
        }
      } catch (IOException e) {
        LOG.warn("cannot list the regions stored on {}: {}", s, e.getMessage());
      }
    }
    return out;
  }
}
