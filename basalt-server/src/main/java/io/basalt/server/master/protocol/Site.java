package io.basalt.server.master.protocol;

import org.apache.hadoop.hbase.ServerName;

/**
 * Where an action runs: the active master (ZooKeeper writes and catalog updates) or one region server.
 * Servers are named as recorded when the protocol began; a restarted server keeps its directories, so
 * the driver resolves a name to the instance live now at the same host and port, both when it calls a
 * server and when it writes one into the catalog (SetRegionState, PublishSplit, PublishMove).
 *
 * @param regionServer the region server, or null for the master
 */
public record Site(ServerName regionServer) {
  public static final Site MASTER = new Site(null);

  public static Site of(ServerName server) {
    if (server == null) {
      throw new IllegalArgumentException("a region server site needs a server");
    }
    return new Site(server);
  }

  public boolean isMaster() {
    return regionServer == null;
  }

  @Override
  public String toString() {
    return isMaster() ? "master" : regionServer.toString();
  }
}
