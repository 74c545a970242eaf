package io.basalt.server.status;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the master's status pages show, read from the master's state. Plain values (no HBase or protobuf
 * types) so the pages only render. Figures a master does not know (a region's size before its server
 * reported it) are -1 or NaN and shown as "?".
 */
public interface ClusterStatus {
  /** Whether this master is the active one; a standby knows only {@link #activeMaster()}. */
  boolean active();

  String clusterId();

  /** The active master's server name (empty if none is known). */
  String activeMaster();

  List<Server> servers();

  List<Table> tables();

  /** The regions of one table in key order, split parents included; empty if no such table. */
  Optional<List<Region>> regions(String table);

  /** The recent splits and moves, newest first. */
  List<Operation> recentOperations();

  /** Re-replication: region members due to be rebuilt elsewhere, and members not serving now. */
  record Rebuilding(int due, int missing) {}

  Rebuilding rebuilding();

  /** Decommissioned region servers (HOST:PORT), which take no new regions. */
  List<String> decommissioned();

  /** A region server as the master sees it. {@code statusUrl} is its status page, null if unknown. */
  record Server(String name, boolean live, int regions, double requestsPerSecond, String statusUrl) {}

  /** {@code bytes} is the sum of its regions' log sizes, -1 if unknown. */
  record Table(String name, String state, int regions, long bytes) {}

  /**
   * One region. Keys are printable ({@code Bytes.toStringBinary}); {@code daughters} names a split parent's
   * daughters (empty otherwise). {@code server} holds its data, or for a replicated region is its primary;
   * {@code copies} lists every copy (one for an unreplicated region) and {@code wantedCopies} how many the
   * table asks for: fewer live copies means the region runs degraded. Load figures are -1/NaN when unknown.
   */
  record Region(String encodedName, String name, String startKey, String endKey, String server, String state,
      List<String> daughters, List<Copy> copies, int wantedCopies, long logBytes, long cells, double readsPerSecond,
      double writesPerSecond) {
    /** Copies on live servers. */
    public long liveCopies() {
      return copies.stream().filter(Copy::live).count();
    }

    public boolean degraded() {
      return !copies.isEmpty() && liveCopies() < wantedCopies;
    }
  }

  /** One copy of a region: its server, its role ("primary", "secondary", or "only copy") and whether it is up. */
  record Copy(String server, String role, boolean live) {}

  /** A finished split or move, with its phase durations in protocol order. */
  record Operation(String kind, String region, String from, String to, long startedAtMillis,
      Map<String, Long> phasesMillis, long totalMillis, long unavailableMillis, long bytes, String outcome) {}
}
