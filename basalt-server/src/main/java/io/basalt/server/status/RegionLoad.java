package io.basalt.server.status;

/** Load figures of one region as its server last reported them (sizes in bytes, rates per second). */
public record RegionLoad(long logBytes, long cells, double readsPerSecond, double writesPerSecond) {}
