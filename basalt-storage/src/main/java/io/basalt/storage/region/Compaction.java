package io.basalt.storage.region;

/**
 * What a compaction of one region did: the entries the purge removed (what HBase's major compaction
 * drops; 0 for a minor one) and the region's log on disk before and after the JE cleaner and a checkpoint.
 */
public record Compaction(long entriesRemoved, long logBytesBefore, long logBytesAfter, long millis) {}
