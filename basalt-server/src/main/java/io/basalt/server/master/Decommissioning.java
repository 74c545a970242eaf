package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.DecommissionedServers;
import io.basalt.server.catalog.RegionRecord;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.net.Address;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HBase's decommission API on Basalt: a decommissioned server takes no new regions or members; with
 * offload its members are rebuilt elsewhere and its unreplicated regions moved away (by the repair chore,
 * at once and until done, so the call returns quickly as HBase's does). Recommissioning lifts that and moves
 * back the regions the caller names, in the background. The set lives in ZooKeeper ({@link
 * DecommissionedServers}) and a new master reads it when it becomes active.
 */
final class Decommissioning {
  private static final Logger LOG = LoggerFactory.getLogger(Decommissioning.class);

  private final DecommissionedServers store;
  private final ServerManager servers;
  private final Catalog catalog;
  private final Master master;
  private final Runnable repairNow;
  private final Executor background;

  Decommissioning(DecommissionedServers store, Master master, Runnable repairNow, Executor background) {
    this.store = store;
    this.master = master;
    this.servers = master.servers();
    this.catalog = master.catalog();
    this.repairNow = repairNow;
    this.background = background;
  }

  /** Reads the set from ZooKeeper into the server manager (on becoming active, and after each change). */
  synchronized void load() throws IOException {
    Map<Address, Boolean> byAddress = new HashMap<>();
    store.load().forEach((s, offload) -> byAddress.merge(s.getAddress(), offload, Boolean::logicalOr));
    servers.setDecommissioned(byAddress);
  }

  synchronized void decommission(List<ServerName> asked, boolean offload) throws IOException {
    for (ServerName s : asked) {
      if (servers.liveAt(s).isEmpty() && !named(s)) {
        throw new DoNotRetryIOException("cannot decommission " + s + ": no region server is registered at "
            + s.getAddress() + " and the region map places nothing there");
      }
    }
    for (ServerName s : asked) {
      store.add(servers.liveAt(s).orElse(s), offload);
      LOG.info("region server {} decommissioned{}", s.getAddress(), offload ? "; moving its regions and members away" : "");
    }
    load();
    if (offload) {
      repairNow.run();
    }
  }

  synchronized List<ServerName> list() throws IOException {
    return List.copyOf(store.load().keySet());
  }

  synchronized void recommission(ServerName server, List<byte[]> regions) throws IOException {
    if (!store.remove(server)) {
      LOG.info("recommission of {}: it was not decommissioned", server.getAddress());
    }
    load();
    LOG.info("region server {} recommissioned{}", server.getAddress(),
        regions.isEmpty() ? "" : "; moving " + regions.size() + " regions back to it");
    if (!regions.isEmpty()) {
      background.execute(() -> moveBack(server, regions));
    }
  }

  /** HBase's recommission "loads" the named regions onto the server again: one move each, failures logged. */
  private void moveBack(ServerName server, List<byte[]> regions) {
    for (byte[] region : regions) {
      try {
        master.move(region, server);
      } catch (IOException e) {
        LOG.warn("cannot move {} back to {}: {}", Bytes.toStringBinary(region), server, e.getMessage());
      }
    }
  }

  /** Whether the region map places a region or a member at the server's address. */
  private boolean named(ServerName s) {
    for (RegionRecord r : catalog.allRegions()) {
      if (r.memberOn(s).isPresent() || (r.server() != null && r.server().getAddress().equals(s.getAddress()))) {
        return true;
      }
    }
    return false;
  }
}
