package io.basalt.server.control;

/**
 * What a region server did for a split's close-and-clone step, or a merge's close-and-merge step (clone: building
 * the merged region; bytes: the smaller region's records and the larger one's tail), for the timing breakdown.
 */
public record CloneReport(long closeMillis, long cloneMillis, long bytesCopied) {}
