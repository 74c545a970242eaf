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
    /** The region's members are as asked: the new copy joined and holds the data, the old one is gone. */
    REPLACED,
    /**
     * Undone: everything is as before the protocol began; trying again may work. (A member change that
     * deleted the old member first, its server being down, undoes only the addition: the old one stays gone.)
     */
    ROLLED_BACK,
    /** Never started (no split row inside the region): trying again the same way will not work. */
    REFUSED
  }

  @Override
  public String toString() {
    return kind + " (" + reason + ")";
  }
}
