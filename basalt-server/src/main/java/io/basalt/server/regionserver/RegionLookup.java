package io.basalt.server.regionserver;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * How a client request finds the region it names on this server, by the region's name or one of its replicas':
 * for a write or a consistent read only the primary copy serves, a TIMELINE read any copy; a region that moved
 * away answers where it went; nothing is served while the server's lease is not confirmed (fencing).
 */
final class RegionLookup {
  private final ServerName serverName;
  private final Map<String, HostedRegion> regions;
  private final Map<String, String> replicaOf;
  private final Map<String, ServerName> movedTo;
  private final ServerLease lease;
  private final SplitHolds splitHolds;

  RegionLookup(ServerName serverName, Map<String, HostedRegion> regions, Map<String, String> replicaOf,
      Map<String, ServerName> movedTo, ServerLease lease, SplitHolds splitHolds) {
    this.serverName = serverName;
    this.regions = regions;
    this.replicaOf = replicaOf;
    this.movedTo = movedTo;
    this.lease = lease;
    this.splitHolds = splitHolds;
  }

  /**
   * The region to write to, or to read from consistently: this server's copy must be the primary (a
   * secondary sends the client to the primary it knows). Refused while the server's lease is not confirmed
   * (fencing).
   */
  HostedRegion region(byte[] regionName) throws IOException {
    String encoded = RegionInfo.encodeRegionName(regionName);
    HostedRegion r = hosted(regionName, encoded);
    if (r == null) {
      String base = replicaOf.get(encoded);
      if (base != null && regions.containsKey(base)) {
        // HBase's answer to a write addressed to a read replica (HRegion.checkReadOnly)
        throw new DoNotRetryIOException("region is read only");
      }
      throw notOnline(regionName, encoded);
    }
    if (!r.primary()) {
      Optional<ServerName> primary = r.primaryServer();
      if (primary.isPresent() && !primary.get().getAddress().equals(serverName.getAddress())) {
        throw new org.apache.hadoop.hbase.exceptions.RegionMovedException(primary.get(), RegionServer.LOCATION_SEQ_NUM);
      }
      throw new NotServingRegionException(Bytes.toStringBinary(regionName) + ": the copy on " + serverName
          + " is not the primary and its replica group has none now (electing one, or too few members are up)");
    }
    return r;
  }

  /** A region to write to: as {@link #region}, once writes held for its split (see {@link SplitHolds}) go on. */
  HostedRegion writable(byte[] regionName) throws IOException {
    splitHolds.await(RegionInfo.encodeRegionName(regionName));
    return region(regionName);
  }

  /** A region to read from, by any of its replica names; {@link Read#stale()} when this copy is not the primary. */
  Read read(byte[] regionName) throws IOException {
    String encoded = RegionInfo.encodeRegionName(regionName);
    HostedRegion r = hosted(regionName, encoded);
    if (r != null) {
      return new Read(region(regionName), false);
    }
    String base = replicaOf.get(encoded);
    r = base == null ? null : hosted(regionName, base);
    if (r == null) {
      throw notOnline(regionName, encoded);
    }
    return new Read(r, !r.primary());
  }

  /**
   * This server's copy of a region, primary or not, named by the region or by one of its replicas (HBase lists a
   * replicated region's copies as replicas): for flush, compaction and region info, which each copy answers
   * for its own log.
   */
  HostedRegion anyCopy(byte[] regionName) throws IOException {
    String encoded = RegionInfo.encodeRegionName(regionName);
    HostedRegion r = hosted(regionName, encoded);
    if (r == null) {
      String base = replicaOf.get(encoded);
      r = base == null ? null : hosted(regionName, base);
    }
    if (r == null) {
      throw notOnline(regionName, encoded);
    }
    return r;
  }

  /** A region served for a read, and whether the answer may be behind the primary's. */
  record Read(HostedRegion region, boolean stale) {}

  private HostedRegion hosted(byte[] regionName, String encoded) throws NotServingRegionException {
    HostedRegion r = regions.get(encoded);
    if (r != null && !lease.valid()) {
      throw new NotServingRegionException(Bytes.toStringBinary(regionName)
          + ": " + serverName + " cannot confirm its ZooKeeper session, so it serves nothing until it can");
    }
    return r;
  }

  private NotServingRegionException notOnline(byte[] regionName, String encoded) {
    ServerName moved = movedTo.get(encoded);
    if (moved != null) {
      return new org.apache.hadoop.hbase.exceptions.RegionMovedException(moved, RegionServer.LOCATION_SEQ_NUM);
    }
    return new NotServingRegionException(Bytes.toStringBinary(regionName) + " is not online on " + serverName);
  }
}
