package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Basalt standalone (ZooKeeper, master and region server in one JVM, so one copy of each region) as a child JVM
 * on free loopback ports, with the JVM flags bin/basalt uses, the same heap as HBase and the JE cache equal to
 * HBase's block cache. Data and logs under {@code WORK_DIR/basalt}.
 */
public final class BasaltStandalone {
  private BasaltStandalone() {}

  public static LaunchedTarget start(ServerSettings settings) throws IOException, InterruptedException {
    Path dir = Files.createDirectories(settings.workDir().resolve("basalt"));
    int[] ports = Ports.free(3);
    ChildJvm child = BasaltJvm.start("basalt", settings.heapMb(), settings.jfr(), BasaltChildMain.class.getName(),
        List.of(dir.resolve("data").toString(), Integer.toString(ports[0]), Integer.toString(ports[1]),
            Integer.toString(ports[2]), Integer.toString(settings.cacheMb())), dir.resolve("logs"));
    return LaunchedTarget.awaitReady("basalt", "Basalt standalone", ports[0], 1, List.of(List.of(child)));
  }
}
