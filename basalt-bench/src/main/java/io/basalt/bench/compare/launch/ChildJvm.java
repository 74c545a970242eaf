package io.basalt.bench.compare.launch;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server JVM started by the bench, under {@link ParentWatchdog}, with the same java as the bench, its output in
 * a log file and its GC pauses logged to {@link #gcLog()}. {@link #close()} ends exactly this process: SIGTERM
 * (so Basalt closes its regions cleanly), then a forced kill of this pid after a grace period.
 */
public final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final Path log;
  private final Path gcLog;
  private final long startedNanos;

  private ChildJvm(Process process, Path log, Path gcLog, long startedNanos) {
    this.process = process;
    this.log = log;
    this.gcLog = gcLog;
    this.startedNanos = startedNanos;
  }

  /**
   * @param jvmArgs heap, collector and module flags; the GC log flag is added here
   * @param logDir where {@code name}.log and {@code name}-gc.log go
   */
  public static ChildJvm start(String name, List<String> jvmArgs, String classpath, String mainClass,
      List<String> args, Path logDir) throws IOException {
    Files.createDirectories(logDir);
    Path log = logDir.resolve(name + ".log").toAbsolutePath();
    Path gcLog = logDir.resolve(name + "-gc.log").toAbsolutePath();
    Files.deleteIfExists(gcLog);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    // Every pause of every collector is a "Pause ..." line of the gc or gc+phases tags (see GcLog).
    cmd.add("-Xlog:gc,gc+phases:file=" + gcLog + ":uptime");
    cmd.add("-cp");
    cmd.add(classpath + File.pathSeparator + watchdogLocation());
    cmd.add(ParentWatchdog.class.getName());
    cmd.add(mainClass);
    cmd.addAll(args);
    long started = System.nanoTime();
    Process process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new ChildJvm(process, log, gcLog, started);
  }

  /** The JVM flags an environment variable holds, split at white space (none when it is unset). */
  static List<String> flagsFromEnv(String name) {
    String flags = System.getenv(name);
    return flags == null || flags.isBlank() ? List.of() : List.of(flags.trim().split("\\s+"));
  }

  private static String watchdogLocation() {
    try {
      return Path.of(ParentWatchdog.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public int exitValue() {
    return process.exitValue();
  }

  /** When the JVM was started ({@link System#nanoTime()}), for the cold start time. */
  public long startedNanos() {
    return startedNanos;
  }

  public Path log() {
    return log;
  }

  public Path gcLog() {
    return gcLog;
  }

  /** The last {@code lines} lines of the child's log, for failure messages. */
  public String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() {
    stopAll(List.of(this));
  }

  /**
   * Stops exactly these processes, together: SIGTERM to each pid first (so that, say, the region servers of one
   * cluster close their regions at the same time rather than one after another), then waits for each and kills
   * by its pid one that has not exited after a grace period.
   */
  public static void stopAll(List<ChildJvm> children) {
    // SIGTERM through the handle: Process.destroy() would also close the child's stdin, and the watchdog would
    // halt it before its shutdown hook had closed the regions.
    for (ChildJvm c : children) {
      c.process.toHandle().destroy();
    }
    for (ChildJvm c : children) {
      c.awaitExit();
    }
  }

  private void awaitExit() {
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      try {
        process.getOutputStream().close();
      } catch (IOException ignored) {
        // already gone
      }
    }
  }
}
