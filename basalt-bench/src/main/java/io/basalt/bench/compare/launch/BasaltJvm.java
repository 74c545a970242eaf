package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How the bench starts a Basalt JVM, whatever it runs (standalone, or a cluster's ZooKeeper, master or region
 * server): the flags of bin/basalt, a fixed heap ({@code -Xms} = {@code -Xmx}), the server's own log at WARN, and
 * optionally a JFR profile ({@link JfrSettings}) written to {@code NAME.jfr} beside its log when it exits.
 */
final class BasaltJvm {
  /** bin/basalt's flags, less the heap (set per process). */
  static final List<String> FLAGS = flags();

  /** bin/basalt's server flags, its ZGC threads on a small machine included. */
  private static List<String> flags() {
    List<String> flags = new ArrayList<>(List.of("-XX:+UseZGC", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "-Dio.netty.tryReflectionSetAccessible=true"));
    if (Runtime.getRuntime().availableProcessors() < 8) {
      flags.add("-XX:ConcGCThreads=2");
    }
    return List.copyOf(flags);
  }

  /**
   * Extra JVM flags for every Basalt process the bench starts, for diagnosis (a native profiler's
   * {@code -agentpath:...}, a collector's logging); results measured with them are not comparable.
   */
  static final String EXTRA_FLAGS_ENV = "BASALT_BENCH_SERVER_OPTS";

  private BasaltJvm() {}

  /**
   * @param name the process's name: its log is {@code logDir/NAME.log}, its GC log {@code NAME-gc.log}
   * @param jfr record a JFR profile into {@code logDir/NAME.jfr}
   */
  static ChildJvm start(String name, int heapMb, boolean jfr, String mainClass, List<String> args, Path logDir)
      throws IOException {
    List<String> jvm = new ArrayList<>(List.of("-Xms" + heapMb + "m", "-Xmx" + heapMb + "m"));
    jvm.addAll(FLAGS);
    jvm.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    if (jfr) {
      jvm.addAll(JfrSettings.jvmFlags(logDir, name));
    }
    jvm.addAll(ChildJvm.flagsFromEnv(EXTRA_FLAGS_ENV));
    return ChildJvm.start(name, jvm, Classpaths.basalt(), mainClass, args, logDir);
  }
}
