package io.basalt.server.master;

import io.basalt.server.control.RegionServerControl;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.ipc.ServerNotRunningYetException;

/**
 * The region servers the master knows to be alive (their ZooKeeper registrations), each with the channel
 * the master drives it through.
 */
public final class ServerManager {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ServerManager.class);
  private final Function<ServerName, RegionServerControl> connector;
  private final Map<ServerName, RegionServerControl> live = new ConcurrentHashMap<>();

  public ServerManager(Function<ServerName, RegionServerControl> connector) {
    this.connector = connector;
  }

  /** A server registered; an older incarnation at the same address is dead (it restarted). */
  void up(ServerName server) {
    live.keySet().removeIf(s -> s.getAddress().equals(server.getAddress()) && s.getStartCode() < server.getStartCode());
    live.computeIfAbsent(server, connector);
  }

  void down(ServerName server) {
    live.remove(server);
  }

  public List<ServerName> live() {
    List<ServerName> out = new ArrayList<>(live.keySet());
    out.sort(Comparator.naturalOrder());
    return out;
  }

  public boolean isLive(ServerName server) {
    return server != null && live.containsKey(server);
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

  /** Which live server holds which region directory (asked of each server; one that does not answer is left out). */
  Map<String, ServerName> storedRegions() {
    Map<String, ServerName> out = new java.util.HashMap<>();
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
