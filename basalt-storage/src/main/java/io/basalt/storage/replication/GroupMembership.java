package io.basalt.storage.replication;

import java.util.List;

/**
 * How one member of a region's replica group finds the others: the group's name (one group per region),
 * this member's name in it, the address its replication node listens on, and the addresses of the other
 * members (any one that answers lets it join).
 */
public record GroupMembership(String groupName, String nodeName, String host, int port, List<String> helpers) {
  public GroupMembership {
    helpers = List.copyOf(helpers);
    if (groupName.isEmpty() || nodeName.isEmpty()) {
      throw new IllegalArgumentException("a replica group member needs a group name and a node name");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("replication port " + port + " is out of range");
    }
  }

  /** {@code host:port}, as the other members reach this one. */
  public String address() {
    return host + ":" + port;
  }
}
