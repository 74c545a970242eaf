package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;

/**
 * Basalt standalone (ZooKeeper, master and region server in one JVM, so one copy of each region) as a child JVM
 * on free loopback ports, with the JVM flags bin/basalt uses, the same heap as HBase and the JE cache equal to
 * HBase's block cache. Data and logs under {@code WORK_DIR/basalt}.
 */
public final class BasaltStandalone {
  private BasaltStandalone() {}

  public static LaunchedTarget start(ServerSettings settings) throws IOException, InterruptedException {
    return start(settings, "basalt", Map.of(), UnaryOperator.identity());
  }

  /**
   * @param name the target's name, also its directory under the work directory and its process's name
   * @param clientSide what a client needs besides the ZooKeeper address (e.g. TLS settings)
   * @param extra settings on top of the bench's (e.g. TLS and authorisation), passed as {@code KEY=VALUE} arguments
   */
  public static LaunchedTarget start(ServerSettings settings, String name, Map<String, String> extra,
      UnaryOperator<Configuration> clientSide) throws IOException, InterruptedException {
    Path dir = Files.createDirectories(settings.workDir().resolve(name));
    int[] ports = Ports.free(3);
    List<String> args = new ArrayList<>(List.of(dir.resolve("data").toString(), Integer.toString(ports[0]),
        Integer.toString(ports[1]), Integer.toString(ports[2]), Integer.toString(settings.cacheMb())));
    extra.forEach((k, v) -> args.add(k + "=" + v));
    ChildJvm child = BasaltJvm.start(name, settings.heapMb(), settings.jfr(), BasaltChildMain.class.getName(), args,
        dir.resolve("logs"));
    return LaunchedTarget.awaitReady(name, "Basalt standalone" + (extra.isEmpty() ? "" : " (" + name + ")"), ports[0],
        1, List.of(List.of(child)), clientSide);
  }
}
