package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * The actions of the snapshot protocols ({@link SnapshotProtocol}, {@link DeleteSnapshotProtocol},
 * {@link CloneSnapshotProtocol}); each idempotent.
 */
public final class SnapshotActions {
  private SnapshotActions() {}


  /**
   * Region server: link the region's log into the snapshot's directory there ({@code DATA/snapshots/NAME/ENCODED}),
   * without copying it: an open region's segments as a flip of its log closed them (it keeps serving), a region
   * closed here (its table disabled) from its directory, its tail copied. A replicated region is linked on its
   * primary's server only (the member holding every acknowledged write), its newest segment copied. The
   * directory appears only complete; there already: nothing to do.
   */
  public record LinkRegionSnapshot(ServerName server, RegionInfo region, String snapshot) implements Action.OfSnapshot {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /** Region server: copy an exported region's files from {@code directory} into the snapshot's directory there. */
  public record ImportRegionSnapshot(ServerName server, RegionInfo region, String snapshot, String directory)
      implements Action.OfSnapshot {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /** Region server: delete the snapshot's directory of the region there (already gone is fine). */
  public record DropRegionSnapshot(ServerName server, RegionInfo region, String snapshot) implements Action.OfSnapshot {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /** Master: the completed snapshot in the catalog (create or overwrite). */
  public record RecordSnapshot(io.basalt.server.catalog.SnapshotRecord snapshot) implements Action.OfSnapshot {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /** Master: the snapshot gone from the catalog (already gone is fine). */
  public record ForgetSnapshot(String snapshot) implements Action.OfSnapshot {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * Region server: make {@code target}'s directory a clone of the snapshot's region {@code source} there (segments
   * hard-linked, the tail copied: the snapshot's files never change); the directory appears only complete, and a
   * complete one is left as it is.
   */
  public record CloneSnapshotRegion(ServerName server, String snapshot, RegionInfo source, RegionInfo target)
      implements Action.OfSnapshot {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /** Master: a table being cloned in the catalog, DISABLED and without regions (already there: nothing to do). */
  public record CreateClonedTable(org.apache.hadoop.hbase.client.TableDescriptor table) implements Action.OfSnapshot {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * Master: the table as the snapshot had it, its new regions on their servers ({@code regions} and {@code
   * servers} in the same order) and the {@code replaced} regions gone from the catalog; the table ENABLED
   * ({@code enable}: a clone) or left DISABLED (a restore, as HBase leaves it). From then on the new regions are
   * the table's.
   */
  public record PublishClone(org.apache.hadoop.hbase.client.TableDescriptor table, List<RegionInfo> regions,
      List<ServerName> servers, List<RegionInfo> replaced, boolean enable, List<List<Member>> groups)
      implements Action.OfSnapshot {
    public PublishClone {
      regions = List.copyOf(regions);
      servers = List.copyOf(servers);
      replaced = List.copyOf(replaced);
      groups = groups.stream().map(List::copyOf).toList();
      if (!groups.isEmpty() && enable) {
        throw new IllegalArgumentException(
            "replica groups are published disabled, enabled once they have their members");
      }
    }

    public PublishClone(org.apache.hadoop.hbase.client.TableDescriptor table, List<RegionInfo> regions,
        List<ServerName> servers, List<RegionInfo> replaced, boolean enable) {
      this(table, regions, servers, replaced, enable, List.of());
    }

    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * The founder's server (the first of {@code members}, which holds the snapshot's files and the clone made from
   * them): make its clone of {@code target} the only member of a NEW JE group named {@code group}, with a new UUID,
   * at its port (once; a repeat finds it done). The other members join it empty, by copy.
   */
  public record FoundCloneGroup(RegionInfo target, String group, List<Member> members) implements Action.OfSnapshot {
    public FoundCloneGroup {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.of(members.get(0).server());
    }
  }

  /**
   * Master: every region of the cloned table OPEN and the table ENABLED (already: nothing to do). Only once every
   * replica group has its members, so that no write is acknowledged by fewer than a majority of the table's copies.
   */
  public record EnableClonedTable(org.apache.hadoop.hbase.TableName table) implements Action.OfSnapshot {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /** Master, undoing a clone: the table and any region of it gone from the catalog (already gone is fine). */
  public record RemoveClonedTable(org.apache.hadoop.hbase.TableName table) implements Action.OfSnapshot {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }
}
