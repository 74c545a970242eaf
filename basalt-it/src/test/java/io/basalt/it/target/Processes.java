package io.basalt.it.target;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Child JVMs, temp dirs and log tails for the targets and the tool tests. */
public final class Processes {
  private Processes() {}

  /**
   * Test servers live seconds to a minute, and each spent as much CPU in C2 compiling as in serving (a region server
   * about 1.7 of its first 5 CPU seconds). Compiling with C1 alone cut the CPU of the cluster tests by a tenth, which
   * on a CI machine's 2 cores shared by two test JVMs is wall time. The benchmarks keep the production JIT.
   */
  private static final String QUICK_JIT = "-XX:TieredStopAtLevel=1";

  /** HBase's own flags for running its server, client and tools on JDK 17 (bin/hbase, hbase-baseline notes). */
  public static final List<String> HBASE_JDK17_FLAGS = List.of(
      "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
      "--add-modules", "jdk.unsupported",
      "--add-opens", "java.base/java.io=ALL-UNNAMED",
      "--add-opens", "java.base/java.nio=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens", "java.base/java.util=ALL-UNNAMED",
      "--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.util.random=ALL-UNNAMED",
      "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
      "--add-exports", "java.security.jgss/sun.security.krb5=ALL-UNNAMED");

  /**
   * Reads a classpath file written by the build (target/hbase-*.classpath, see basalt-it/pom.xml) named by a
   * system property that surefire sets.
   */
  public static String classpathFromBuild(String property) {
    String file = System.getProperty(property);
    if (file == null) {
      throw new IllegalStateException("system property " + property + " is not set: run the tests through Maven "
          + "(mvn -pl basalt-it verify), which resolves HBase 2.6.4 and writes the classpath file");
    }
    try {
      String cp = Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
      if (cp.isEmpty()) {
        throw new IllegalStateException(file + " is empty");
      }
      return cp;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + " (written by mvn generate-test-resources in basalt-it)", e);
    }
  }

  /**
   * Starts {@code mainClass} in a child JVM under {@link ChildMain}, so it halts when this JVM lets go of it;
   * stdout and stderr go to {@code log}. Keep the returned process's output stream open while the child should run.
   */
  public static Process startJava(List<String> jvmArgs, String classpath, String mainClass, List<String> args, Path log)
      throws IOException {
    return startJava(List.of(), jvmArgs, classpath, mainClass, args, log);
  }

  /**
   * As {@link #startJava(List, String, String, List, Path)}, through {@code launcher} (e.g. {@code ip netns exec NS}),
   * which must exec java so that the process handle is java's own.
   */
  public static Process startJava(List<String> launcher, List<String> jvmArgs, String classpath, String mainClass,
      List<String> args, Path log) throws IOException {
    List<String> cmd = new ArrayList<>(launcher);
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(QUICK_JIT);
    cmd.addAll(jvmArgs);
    cmd.addAll(HBASE_JDK17_FLAGS);
    cmd.add("-cp");
    cmd.add(classpath + File.pathSeparator + childMainLocation());
    cmd.add(ChildMain.class.getName());
    cmd.add(mainClass);
    cmd.addAll(args);
    Files.createDirectories(log.toAbsolutePath().getParent());
    // Appended: a restarted server keeps writing to the log of its earlier life, which explains what it did.
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  /** Only the directory or jar holding ChildMain joins the child's classpath, after everything else. */
  private static String childMainLocation() {
    try {
      return Path.of(ChildMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Stops a child this JVM started, and only that one: closing its stdin makes {@link ChildMain} halt it; if it
   * has not gone within the grace period it is killed by its handle.
   */
  public static void stop(Process process, long graceMillis) {
    if (process == null) {
      return;
    }
    try {
      process.getOutputStream().close();
    } catch (IOException ignored) {
      // already closed
    }
    try {
      if (!process.waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  public static boolean accepts(int port) {
    return accepts("127.0.0.1", port);
  }

  public static boolean accepts(String host, int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The last {@code lines} lines of a log file, for failure messages. */
  public static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  public static void deleteRecursively(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException ignored) {
      // best effort: it is a temp dir
    }
  }

  /** Where logs of child processes go: target/target-logs under Maven, else the temp dir. */
  public static Path logDir() {
    String dir = System.getProperty("basalt.it.logDir");
    return dir != null ? Path.of(dir) : Path.of(System.getProperty("java.io.tmpdir"));
  }
}
