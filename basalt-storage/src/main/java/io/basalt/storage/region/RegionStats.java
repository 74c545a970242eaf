package io.basalt.storage.region;

/**
 * Cheap-to-read figures of one region, for split thresholds and metrics.
 *
 * @param logBytes bytes of log segments on disk (the region's whole footprint)
 * @param cellCount stored entries inside the key range, versions and delete markers included
 * @param pendingCollection true while keys outside the key range (left by a clone) are still being removed
 * @param rowsRead rows read since the region was opened (each Get, each row a scanner returned)
 * @param rowsWritten row updates since the region was opened (each Put/Delete/Increment/Append/checkAndMutate/
 *     mutateRow of one row)
 */
public record RegionStats(long logBytes, long cellCount, boolean pendingCollection, long rowsRead, long rowsWritten) {}
