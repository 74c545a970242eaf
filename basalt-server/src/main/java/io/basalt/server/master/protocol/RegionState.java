package io.basalt.server.master.protocol;

/**
 * The catalog states a protocol sets on a region it holds (same names as the RegionMap's states in
 * {@code io.basalt.server.catalog.RegionRecord}). A region that is SPLITTING or MOVING is not reopened by
 * assignment; only its transaction decides what happens to it.
 */
public enum RegionState {
  /** Served by its server (the state before a split or move, and after one is rolled back). */
  OPEN,
  /** Held by a split transaction: its server closes and clones it. */
  SPLITTING,
  /** Held by a move transaction: still served by the source until the close. */
  MOVING,
  /** Held by a merge transaction: its server closes it and builds the merged region from it and its neighbour. */
  MERGING
}
