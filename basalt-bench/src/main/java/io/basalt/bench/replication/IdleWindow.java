package io.basalt.bench.replication;

import io.basalt.bench.report.HostFacts;
import io.basalt.bench.report.MachineCpu;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Measures every region server over one idle window: a {@link ProcSnapshot} of each at the start and at the end
 * (CPU is the difference of the two; the rest is read at the end), the machine's busy share over the same
 * window (everything that ran, to tell whether the box was shared), the thread-name groups, and, once the window
 * is over, the heap each still uses after a full collection.
 */
final class IdleWindow {
  /** One region server over the window. */
  record Server(String name, long pid, int membersOnDisk, boolean alive, ProcSnapshot start, ProcSnapshot end,
      double cpuPercent, double heapAfterGcMb, Map<String, Integer> threadGroups, long replicationPortsListening) {}

  /** All servers over one window; {@code machineBusyPercent}: all cores, all processes. */
  record Result(List<Server> servers, double windowSeconds, double machineBusyPercent, String loadAverageAfter) {}

  private IdleWindow() {}

  static Result measure(List<ResourceCluster.Child> regionServers, int windowSeconds, boolean heapAfterGc,
      long ticksPerSecond) throws IOException, InterruptedException {
    List<ProcSnapshot> starts = new ArrayList<>();
    MachineCpu machineStart = MachineCpu.now();
    for (ResourceCluster.Child c : regionServers) {
      starts.add(c.process().isAlive() ? ProcSnapshot.of(c.pid()) : null);
    }
    long t0 = System.nanoTime();
    Thread.sleep(windowSeconds * 1000L);
    MachineCpu machineEnd = MachineCpu.now();
    double seconds = (System.nanoTime() - t0) / 1e9;
    List<ProcSnapshot> ends = new ArrayList<>();
    for (ResourceCluster.Child c : regionServers) {
      ends.add(c.process().isAlive() ? ProcSnapshot.of(c.pid()) : null);
    }
    String load = HostFacts.loadAverage();
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < regionServers.size(); i++) {
      ResourceCluster.Child c = regionServers.get(i);
      ProcSnapshot s = starts.get(i);
      ProcSnapshot e = ends.get(i);
      boolean alive = s != null && e != null && c.process().isAlive();
      Map<String, Integer> groups = alive ? ThreadNames.of(c.pid()) : Map.of();
      double heap = alive && heapAfterGc ? HeapAfterGc.megabytes(c.pid()) : Double.NaN;
      servers.add(new Server(c.name(), c.pid(), ResourceCluster.membersOnDisk(c), alive, s, e,
          alive ? e.cpuPercentSince(s, ticksPerSecond) : Double.NaN, heap, groups,
          e == null ? 0 : e.listenPortsWithin(c.firstReplicationPort(), c.lastReplicationPort())));
    }
    return new Result(servers, seconds, machineEnd.since(machineStart).busyPercent(), load);
  }
}
