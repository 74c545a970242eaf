package io.basalt.bench.replication;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What Linux reports about one process at one instant, all from {@code /proc/PID}: its threads, its open file
 * descriptors, the TCP ports it listens on and its established TCP connections (sockets among its descriptors,
 * matched by inode against {@code /proc/PID/net/tcp} and {@code tcp6}), its resident and proportional memory
 * ({@code smaps_rollup}), the CPU time it has used ({@code stat}: utime + stime, in clock ticks) and the inotify
 * instances it holds (descriptors on {@code anon_inode:inotify}: each Java WatchService is one, and Linux allows
 * {@code fs.inotify.max_user_instances} per user, 128 by default).
 */
record ProcSnapshot(long pid, long nanoTime, int threads, int fds, Set<Integer> listenPorts, int tcpEstablished,
    int inotifyInstances, long rssKb, long pssKb, long cpuTicks) {

  /** TCP states in /proc/net/tcp (include/net/tcp_states.h). */
  private static final String LISTEN = "0A";
  private static final String ESTABLISHED = "01";

  static ProcSnapshot of(long pid) throws IOException {
    Path proc = Path.of("/proc", Long.toString(pid));
    long now = System.nanoTime();
    Set<Long> sockets = new HashSet<>();
    int fds = 0;
    int inotify = 0;
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(proc.resolve("fd"))) {
      for (Path fd : dir) {
        fds++;
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            sockets.add(Long.parseLong(target.substring(8, target.length() - 1)));
          } else if (target.equals("anon_inode:inotify")) {
            inotify++;
          }
        } catch (NoSuchFileException closedMeanwhile) {
          // the descriptor was closed while we listed them
        }
      }
    }
    Set<Integer> listening = new TreeSet<>();
    int established = 0;
    for (String table : List.of("tcp", "tcp6")) {
      Path file = proc.resolve("net").resolve(table);
      if (!Files.exists(file)) {
        continue;
      }
      List<String> lines = Files.readAllLines(file);
      for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
        String[] f = line.trim().split("\\s+");
        if (f.length < 10 || !sockets.contains(Long.parseLong(f[9]))) {
          continue;
        }
        if (f[3].equals(LISTEN)) {
          String local = f[1];
          listening.add(Integer.parseInt(local.substring(local.lastIndexOf(':') + 1), 16));
        } else if (f[3].equals(ESTABLISHED)) {
          established++;
        }
      }
    }
    int threads = 0;
    for (String line : Files.readAllLines(proc.resolve("status"))) {
      if (line.startsWith("Threads:")) {
        threads = Integer.parseInt(line.substring(8).trim());
      }
    }
    long rss = -1;
    long pss = -1;
    Path rollup = proc.resolve("smaps_rollup");
    if (Files.exists(rollup)) {
      for (String line : Files.readAllLines(rollup)) {
        if (line.startsWith("Rss:")) {
          rss = kb(line);
        } else if (line.startsWith("Pss:")) {
          pss = kb(line);
        }
      }
    }
    return new ProcSnapshot(pid, now, threads, fds, listening, established, inotify, rss, pss, cpuTicks(proc));
  }

  /** utime + stime of the whole process (all its threads), in clock ticks. */
  static long cpuTicks(Path proc) throws IOException {
    String stat = String.join(" ", Files.readAllLines(proc.resolve("stat")));
    // the command name may hold spaces and parentheses: the fields start after the last ')'
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    // f[0] is field 3 (state): utime is field 14, stime field 15
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  private static long kb(String line) {
    return Long.parseLong(line.replaceAll("\\D", ""));
  }

  /** Listening ports within {@code first..last} (the replication port range). */
  long listenPortsWithin(int first, int last) {
    return listenPorts.stream().filter(p -> p >= first && p <= last).count();
  }

  /**
   * CPU used between {@code earlier} and this snapshot as a percentage of one core (100 = one core busy all
   * the time), given the kernel's clock ticks per second.
   */
  double cpuPercentSince(ProcSnapshot earlier, long ticksPerSecond) {
    double seconds = (nanoTime - earlier.nanoTime) / 1e9;
    return seconds <= 0 ? Double.NaN : 100.0 * (cpuTicks - earlier.cpuTicks) / ticksPerSecond / seconds;
  }
}
