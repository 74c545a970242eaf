package io.basalt.server.control;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * What the master asks of a region server. Every call is idempotent (opening an open region, closing a
 * closed one, dropping a missing one all succeed), so a master that crashed mid-way can simply repeat it.
 * Implemented by the region server itself and, across processes, by {@link RemoteRegionServer}.
 */
public interface RegionServerControl {
  /**
   * Opens the region from its data on this server and starts serving it. A region whose directory is
   * missing is refused (it would come back empty): only {@link #createRegion} starts one without data.
   */
  void openRegion(RegionInfo region, TableDescriptor table) throws IOException;

  /** Creates a new, empty region (or opens it if an earlier try created it) and starts serving it. */
  void createRegion(RegionInfo region, TableDescriptor table) throws IOException;

  // Replicated regions: each of a region's members runs on its own server as a member of the region's
  // replica group, listening on a replication port from that server's range.

  /**
   * A free replication port of this server's range for a member of {@code region}: not in {@code taken}
   * (ports the catalog records on this machine), not used by a member open here, and bindable now.
   */
  int replicationPort(RegionInfo region, Set<Integer> taken) throws IOException;

  /**
   * Opens this server's member of a replicated region and starts serving it (reads; writes once its group
   * elects it). {@code create}: the region is new, so the member may start empty (the first member of
   * {@code members} founds the group, the others join it). Otherwise a member whose data is missing here
   * joins its group empty and is refilled from the others before it serves; with no other member it is
   * refused, as in {@link #openRegion}. {@code group}: the name of its JE group ({@code RegionRecord.group()}).
   * The member serves only the region's key range, even while its log still holds a split parent's.
   */
  void openMember(RegionInfo region, TableDescriptor table, String group, List<Member> members, boolean create)
      throws IOException;

  /** This server's part in splitting replicated regions. */
  GroupSplitControl groupSplits();

  /** This server's part in merging replicated regions. */
  GroupMergeControl groupMerges();

  /** This server's snapshot directories. */
  SnapshotControl snapshots();

  /**
   * On the server of a replicated region's primary: hands the primary role to the member on {@code target}
   * (up and caught up) and returns once the group has elected it; writes in flight finish or fail retriably.
   */
  void transferPrimary(RegionInfo region, org.apache.hadoop.hbase.ServerName target) throws IOException;

  /**
   * Opens this server's member of a replicated region with {@code members} as its group, as {@link
   * #openMember} does for an existing region (joining empty when its data is not here), and returns once
   * the member holds everything the group's primary had committed when it joined (already open: only the
   * wait). A member change counts the new member as a copy from then on.
   */
  void joinMember(RegionInfo region, TableDescriptor table, String group, List<Member> members) throws IOException;

  /**
   * Through this server's member of a replicated region: has the group's primary delete {@code gone} from
   * the group (it must not be running; its server may be down). Already deleted: nothing to do. The name
   * stays usable: the same server may later join the group again.
   */
  void deleteMember(RegionInfo region, Member gone) throws IOException;

  /** Stops serving the region: new operations are refused, in-flight ones drain, the log is synced. */
  void closeRegion(RegionInfo region) throws IOException;

  /** Closes the region and deletes its data (table deleted or truncated, split parent retired). */
  void dropRegion(RegionInfo region) throws IOException;

  /** Applies changed table settings (families, versions, TTL, ...) to the table's open regions. */
  void alterTable(TableDescriptor table) throws IOException;

  /**
   * Forces the log of every region of {@code table} hosted here (primary or other member) to disk: HBase's
   * flush. Returns how many regions were flushed.
   */
  int flushTable(org.apache.hadoop.hbase.TableName table) throws IOException;

  /** The regions being served now. */
  List<RegionInfo> onlineRegions() throws IOException;

  /** Encoded names of the regions whose data is on this server's disk, served or not. */
  List<String> storedRegions() throws IOException;

  /** The row that splits the region's data in halves; empty if it cannot be split now. */
  Optional<byte[]> midpoint(RegionInfo parent) throws IOException;

  /** Closes the parent (drained, synced) and clones its log into both daughters' directories. */
  CloneReport closeAndClone(RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB) throws IOException;

  /** Drops the daughters' directories (if any) and serves the parent again. */
  void rollBackSplit(RegionInfo parent, TableDescriptor table, RegionInfo daughterA, RegionInfo daughterB)
      throws IOException;

  /**
   * Closes both regions (drained, synced) and builds the merged region's directory from theirs: a clone of the
   * larger one's log filled with the smaller one's records. A merged directory already there is kept.
   */
  CloneReport closeAndMerge(RegionInfo lower, RegionInfo upper, RegionInfo merged) throws IOException;

  /** Drops the merged region's directory (if any) and serves both regions again. */
  void rollBackMerge(RegionInfo lower, RegionInfo upper, TableDescriptor table, RegionInfo merged) throws IOException;

  // Move (paper §III.E). Source: preClose, closeForMove, then finishMoveAway or abortMoveAway.
  // Target: prefetch, openMoved, or abortMoveIn.

  /** Source, still serving: pins the region's closed log segments (no cleaning, no split) and exports them. */
  MoveSource preClose(RegionInfo region) throws IOException;

  /**
   * Target: starts pulling the exported segments into a staging directory while the source serves, and
   * returns; the end is reported in ZooKeeper ({@link PrefetchReports}), where the master watches for it.
   */
  void prefetch(RegionInfo region, MoveSource source) throws IOException;

  /** Source: stops serving (drain, sync, close) and exports the closed region's final segments. */
  MoveSource closeForMove(RegionInfo region) throws IOException;

  /** Target: pulls only what changed since the prefetch, then opens and serves the region. Returns bytes. */
  long openMoved(RegionInfo region, TableDescriptor table, MoveSource source) throws IOException;

  /** Source, after the move is published: deletes its copy; clients are told where the region went. */
  void finishMoveAway(RegionInfo region, org.apache.hadoop.hbase.ServerName target) throws IOException;

  /** Source, undoing a move: stops exporting and serves the region again if it had closed it. */
  void abortMoveAway(RegionInfo region, TableDescriptor table) throws IOException;

  /** Target, undoing a move: closes the region if it opened it and deletes what it pulled. */
  void abortMoveIn(RegionInfo region) throws IOException;
}
