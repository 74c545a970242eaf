package io.basalt.bench.replication;

import java.util.List;

/**
 * One run of the measurement. {@code steps}: region members per region server to measure at, in increasing
 * order (0 = an idle cluster without tables); each step adds tables of at most {@code regionsPerTable} regions
 * ({@code rowsPerRegion} rows written into each) until every server hosts that many members, lets the cluster
 * settle for {@code settleSeconds} and measures over {@code windowSeconds}. The cluster: {@code regionServers}
 * servers, {@code replicationFactor} copies per region, server {@code i} replicating on ports
 * {@code replicationPortBase + i * replicationPortsPerServer} and the {@code replicationPortsPerServer - 1}
 * after it.
 */
record Settings(List<Integer> steps, int settleSeconds, int windowSeconds, int regionsPerTable, int rowsPerRegion,
    boolean heapAfterGc, int regionServers, int replicationFactor, int serverHeapMb, int serverCacheMb,
    List<String> serverJvmFlags, int masterHeapMb, int zookeeperHeapMb, int replicationPortBase,
    int replicationPortsPerServer, long createTimeoutSeconds, int stopSeconds) {

  /** Regions to create so that each server hosts {@code members} members (copies spread evenly). */
  int regionsFor(int members) {
    return (int) Math.ceil((double) members * regionServers / replicationFactor);
  }
}
