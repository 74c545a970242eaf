package io.basalt.bench.compare.launch;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ServerKeys;
import io.basalt.server.config.StorageKeys;
import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Basalt standalone as the bench runs it: the given ports, the cache the comparison sets equal to HBase's
 * block cache, and no web UI (its port would clash with HBase's). Args: DATA_DIR ZK_PORT MASTER_PORT RS_PORT
 * CACHE_MB [KEY=VALUE ...] (more settings, e.g. TLS and authorisation). Runs until SIGTERM, then closes every
 * region cleanly.
 */
public final class BasaltChildMain {
  private BasaltChildMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println("usage: BasaltChildMain DATA_DIR ZK_PORT MASTER_PORT RS_PORT CACHE_MB [KEY=VALUE ...]");
      System.exit(2);
    }
    StandaloneConfig ports = StandaloneConfig.defaults(Path.of(args[0]))
        .withPorts(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3])).withInfoPort(-1);
    Map<String, String> settings = new LinkedHashMap<>(ports.settings().with(ServerKeys.HOST, "127.0.0.1")
        .with(StorageKeys.CACHE_BYTES, Long.toString(Long.parseLong(args[4]) << 20)).rawValues());
    for (int i = 5; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq <= 0) {
        System.err.println("not KEY=VALUE: " + args[i]);
        System.exit(2);
      }
      settings.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    StandaloneConfig config = new StandaloneConfig(BasaltConfig.of(settings));
    StandaloneServer server = new StandaloneServer(config);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "basalt-shutdown"));
    System.out.println("Basalt standalone is up on ZooKeeper 127.0.0.1:" + server.zookeeperPort());
    stopped.await();
  }
}
