package io.basalt.server.control;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A region server's part in snapshots: the snapshot directories on its disk ({@code DATA/snapshots/NAME/ENCODED},
 * each a region's log hard-linked) and the region directories cloned from them. Every call is idempotent, as the
 * snapshot protocols' actions must be: a directory appears only complete, and a complete one is left alone.
 */
public interface SnapshotControl {
  /**
   * Links the region's log into the snapshot's directory here without copying it: an open region's segments as a
   * flip closed them (it keeps serving), a closed one's from its directory (tail copied). A replicated region is
   * linked only where its member is the primary. Returns the bytes copied.
   */
  long linkRegion(String snapshot, RegionInfo region) throws IOException;

  /** Copies an exported region's files from {@code directory/ENCODED} into the snapshot's directory here. */
  long importRegion(String snapshot, RegionInfo region, String directory) throws IOException;

  /** Copies the snapshot's files of the region here into {@code directory/ENCODED} (an export). Returns bytes. */
  long exportRegion(String snapshot, RegionInfo region, String directory) throws IOException;

  /** Deletes the snapshot's directory of the region here (already gone is fine). */
  void dropRegion(String snapshot, RegionInfo region) throws IOException;

  /**
   * Makes {@code target}'s region directory here a clone of the snapshot's {@code source}: segments hard-linked,
   * the tail copied. Returns the bytes copied.
   */
  long cloneRegion(String snapshot, RegionInfo source, RegionInfo target) throws IOException;

  /**
   * On the founder (the first of {@code members}, this server): makes the clone of a replicated snapshot's region in
   * {@code target}'s directory here the only member of a NEW replica group named {@code group} (a new UUID, its log's
   * replication history cut) at its port, so it can never meet the group the snapshot was taken from; the other
   * members join it empty. A repeat finds it done.
   */
  void foundCloneGroup(RegionInfo target, String group, List<Member> members) throws IOException;
}
