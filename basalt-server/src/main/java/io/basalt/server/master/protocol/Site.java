package io.basalt.server.master.protocol;

import org.apache.hadoop.hbase.ServerName;

/**
 * Where an action runs: the active master (ZooKeeper writes and catalog updates) or one region server.
 * A region server is named as recorded in the transaction; the driver sends the action to whichever
 * instance now runs at that host and port, since a restarted server keeps its directories.
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
