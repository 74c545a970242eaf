package io.basalt.storage.region;

/**
 * What a merge of two closed regions cost ({@link StorageEngine#mergeClosed}).
 *
 * @param recordsCopied the smaller region's records written into the merged one
 * @param bytesCopied their keys and values
 * @param staleDeleted keys the larger region still held of the smaller one's range (a daughter not yet collected)
 * @param tailBytes the larger region's tail segment, copied by its clone (its other segments are hard-linked)
 * @param millis how long the merge took
 */
public record MergeReport(long recordsCopied, long bytesCopied, long staleDeleted, long tailBytes, long millis) {}
