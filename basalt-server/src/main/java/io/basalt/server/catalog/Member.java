package io.basalt.server.catalog;

import org.apache.hadoop.hbase.ServerName;

/**
 * One member of a region's replica group: the region server whose disk holds a copy, and the port its
 * replication node listens on there. A server keeps its members across restarts (a new start code is the
 * same server at the same address), so members are matched by address, not by start code.
 */
public record Member(ServerName server, int port) {
  public Member {
    if (server == null) {
      throw new IllegalArgumentException("a member needs a server");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("replication port " + port + " is out of range");
    }
  }

  /**
   * The member's name inside its replica group: the server's address, so a server that returns (even with
   * an empty disk) rejoins as the same member.
   */
  public String nodeName() {
    return nodeName(server);
  }

  public static String nodeName(ServerName server) {
    return server.getHostname() + "_" + server.getPort();
  }

  public boolean isOn(ServerName other) {
    return other != null && server.getAddress().equals(other.getAddress());
  }
}
