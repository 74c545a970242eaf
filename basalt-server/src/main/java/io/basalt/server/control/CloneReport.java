package io.basalt.server.control;

/** What a region server did for a split's close-and-clone step, for the split's timing breakdown. */
public record CloneReport(long closeMillis, long cloneMillis, long bytesCopied) {}
