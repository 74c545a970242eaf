package io.basalt.server.config;

/** How many copies of each region the cluster keeps, and where their replication traffic flows. */
public final class ReplicationKeys {
  private ReplicationKeys() {}

  public static final ConfigKey<Integer> FACTOR = ConfigKey.integer("basalt.replication.factor", 3, 1, 7,
      "Copies of each region on distinct region servers in a cluster (read by the master): each region is a "
          + "replica group of this many members that elects its primary. A table's REGION_REPLICATION overrides "
          + "it. With fewer live servers a region runs degraded until servers join. Standalone (one region server) "
          + "keeps 1 copy whatever this says; 1 here gives a cluster without replication.");

  public static final ConfigKey<PortRange> PORT_RANGE = ConfigKey.of("basalt.replication.port.range", "port range",
      new PortRange(16500, 16999), PortRange::parse,
      "Ports a region server gives the replication nodes of the region members it hosts, one port each "
          + "(FIRST-LAST). Size it for the members a server may host; several region servers on one machine "
          + "need ranges that do not overlap.");

  public static final ConfigKey<Long> REREPLICATE_AFTER = ConfigKey.millis("basalt.replication.rereplicate.after",
      600_000, 1_000,
      "How long, in ms, a region server may be gone (its ZooKeeper registration vanished) before the master "
          + "rebuilds each of its region members on another live server. 10 minutes by default: a restart for an "
          + "upgrade or a reboot takes a few minutes and its members catch up from the group's log on return, "
          + "while rebuilding streams a whole copy; a region keeps a majority meanwhile. Lower it to restore the "
          + "copies sooner after a machine is lost for good (a decommissioned server is rebuilt at once).");
}
