package io.basalt.bench.replication;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The threads of a process grouped by name, to tell which kinds of thread grow with the members a server
 * hosts. The name is the kernel's ({@code /proc/PID/task/TID/comm}: the JVM gives it the first 15 characters of
 * the Java thread's name); digits become {@code #}, so "Feeder Output 12" and "Feeder Output 7" are one group.
 */
final class ThreadNames {
  private ThreadNames() {}

  static Map<String, Integer> of(long pid) throws IOException {
    Map<String, Integer> groups = new TreeMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        try {
          String name = Files.readString(task.resolve("comm")).strip().replaceAll("\\d+", "#");
          groups.merge(name, 1, Integer::sum);
        } catch (NoSuchFileException ended) {
          // the thread ended while we listed them
        }
      }
    }
    return groups;
  }
}
