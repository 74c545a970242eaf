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
}
