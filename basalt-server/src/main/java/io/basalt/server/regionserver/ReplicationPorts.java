package io.basalt.server.regionserver;

import io.basalt.server.config.PortRange;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands out this server's replication ports, one per member it hosts. The catalog is the record of which
 * member has which port (a server whose disk was wiped learns its members' ports from the master again);
 * this only keeps a port handed out from being handed out twice before the catalog records it.
 */
final class ReplicationPorts {
  private final String host;
  private final PortRange range;
  private final Map<String, Integer> byRegion = new ConcurrentHashMap<>();

  ReplicationPorts(String host, PortRange range) {
    this.host = host;
    this.range = range;
  }

  String host() {
    return host;
  }

  /** A free port for {@code region}'s member: the one given before if still free, else the lowest free one. */
  synchronized int allocate(String region, Set<Integer> taken) throws IOException {
    Integer before = byRegion.get(region);
    if (before != null && !taken.contains(before)) {
      return before;
    }
    for (int p = range.first(); p <= range.last(); p++) {
      if (!taken.contains(p) && !byRegion.containsValue(p) && bindable(p)) {
        byRegion.put(region, p);
        return p;
      }
    }
    throw new IOException("no free replication port left in " + range + " on " + host + " (" + byRegion.size()
        + " members here); widen basalt.replication.port.range");
  }

  /** A member opened on a port the catalog gave it (after a restart): that port is taken here. */
  synchronized void inUse(String region, int port) {
    byRegion.put(region, port);
  }

  synchronized void release(String region) {
    byRegion.remove(region);
  }

  private boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(host, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
