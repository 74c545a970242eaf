package io.basalt.server.master.protocol;

/**
 * How a protocol ended.
 *
 * @param kind what happened
 * @param reason why, for logs and for the caller (the row a region split at, the failure that rolled a
 *     step back, why a split was refused)
 */
public record Outcome(Kind kind, String reason) {
  public enum Kind {
    /** The daughters serve the parent's rows and the catalog says so; the parent is retired. */
    SPLIT,
    /** The target serves the region and the catalog says so; the source dropped its copy. */
    MOVED,
    /** The merged region serves both regions' rows and the catalog says so; the two are gone. */
    MERGED,
    /** The region's members are as asked: the new copy joined and holds the data, the old one is gone. */
    REPLACED,
    /**
     * Undone: everything is as before the protocol began; trying again may work. (A member change that
     * deleted the old member first, its server being down, undoes only the addition: the old one stays gone.)
     */
    ROLLED_BACK,
    /** A snapshot's regions are linked (or imported) and the catalog lists it. */
    SNAPSHOT_TAKEN,
    /** A snapshot is gone from the catalog and its files from every server. */
    SNAPSHOT_DELETED,
    /** A snapshot's regions are cloned into a new table, published and served. */
    CLONED,
    /** A disabled table's regions are replaced by clones of a snapshot's; the table stays disabled. */
    RESTORED,
    /** Never started (no split row inside the region): trying again the same way will not work. */
    REFUSED
  }

  @Override
  public String toString() {
    return kind + " (" + reason + ")";
  }
}
