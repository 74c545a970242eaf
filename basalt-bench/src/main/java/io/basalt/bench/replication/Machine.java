package io.basalt.bench.replication;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The machine around the measured processes: clock ticks per second and the limits that bound threads and
 * descriptors (how busy its cores were: {@link io.basalt.bench.report.MachineCpu}).
 */
final class Machine {
  private Machine() {}

  /** The kernel's USER_HZ ({@code getconf CLK_TCK}), 100 when it cannot be asked. */
  static long ticksPerSecond() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0) {
        return Long.parseLong(out);
      }
    } catch (IOException | RuntimeException e) {
      // fall through
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 100;
  }

  /** Limits that bound how many threads and descriptors a region server can have. */
  static String limits() {
    StringBuilder s = new StringBuilder();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith("Max processes") || line.startsWith("Max open files")) {
          String[] f = line.substring(25).trim().split("\\s+");
          s.append(line.startsWith("Max processes") ? "max user processes " : "max open files ").append(f[0]).append("; ");
        }
      }
      s.append("kernel.threads-max ").append(sysctl("kernel/threads-max"));
      s.append("; kernel.pid_max ").append(sysctl("kernel/pid_max"));
      s.append("; fs.inotify.max_user_instances ").append(sysctl("fs/inotify/max_user_instances"));
      s.append("; fs.inotify.max_user_watches ").append(sysctl("fs/inotify/max_user_watches"));
      s.append("; ephemeral ports ").append(sysctl("net/ipv4/ip_local_port_range").replaceAll("\\s+", "-"));
    } catch (IOException | RuntimeException e) {
      s.append("(not all limits readable)");
    }
    return s.toString();
  }

  /**
   * Inotify instances held right now by all processes of this user (the budget {@code fs.inotify.max_user_instances}
   * counts per user, machine-wide), and by how many processes.
   */
  static String inotifyInUse() {
    int[] n = inotifyInstances();
    return n[0] < 0 ? "unknown" : n[0] + " inotify instances held by " + n[1] + " processes of uid " + n[2];
  }

  /** {instances, processes, uid} of this user's inotify instances ({-1, 0, 0} when unknown). */
  static int[] inotifyInstances() {
    long uid;
    try {
      uid = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
    } catch (IOException | RuntimeException e) {
      return new int[] {-1, 0, 0};
    }
    int instances = 0;
    int processes = 0;
    try (java.nio.file.DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path p : procs) {
        try {
          if (((Number) Files.getAttribute(p, "unix:uid")).longValue() != uid) {
            continue;
          }
          int mine = 0;
          try (java.nio.file.DirectoryStream<Path> fds = Files.newDirectoryStream(p.resolve("fd"))) {
            for (Path fd : fds) {
              try {
                if (Files.readSymbolicLink(fd).toString().equals("anon_inode:inotify")) {
                  mine++;
                }
              } catch (IOException gone) {
                // closed meanwhile
              }
            }
          }
          instances += mine;
          processes += mine > 0 ? 1 : 0;
        } catch (IOException | RuntimeException gone) {
          // the process ended or is not readable
        }
      }
    } catch (IOException e) {
      return new int[] {-1, 0, 0};
    }
    return new int[] {instances, processes, (int) uid};
  }

  /** A file under /proc/sys, read line-wise (Files.readString may stop after the first byte of a sysctl file). */
  private static String sysctl(String name) throws IOException {
    return String.join(" ", Files.readAllLines(Path.of("/proc/sys", name))).trim();
  }
}
