package io.basalt.server.standalone;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ConfigArgs;
import io.basalt.server.config.ConfigKey;
import io.basalt.server.config.InvalidConfigException;
import io.basalt.server.config.ServerKeys;
import io.basalt.server.config.ZooKeeperKeys;
import io.basalt.server.status.StatusServer;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code basalt standalone [--config FILE] [-Dkey=value ...]}: runs until SIGTERM/SIGINT, then closes every
 * region cleanly. The older options ({@code --data-dir}, {@code --host}, {@code --zookeeper-port},
 * {@code --master-port}, {@code --regionserver-port}, {@code --info-port}) are aliases of their keys.
 */
public final class StandaloneMain {
  private static final Logger LOG = LoggerFactory.getLogger(StandaloneMain.class);

  /** Option spellings kept from before the typed configuration, and HBase key names as options. */
  public static final Map<String, ConfigKey<?>> ALIASES = Map.ofEntries(
      Map.entry("--data-dir", ServerKeys.DATA_DIR),
      Map.entry("--host", ServerKeys.HOST),
      Map.entry("--zookeeper-port", ZooKeeperKeys.CLIENT_PORT),
      Map.entry("--hbase.zookeeper.property.clientPort", ZooKeeperKeys.CLIENT_PORT),
      Map.entry("--master-port", ServerKeys.MASTER_PORT),
      Map.entry("--hbase.master.port", ServerKeys.MASTER_PORT),
      Map.entry("--regionserver-port", ServerKeys.REGIONSERVER_PORT),
      Map.entry("--hbase.regionserver.port", ServerKeys.REGIONSERVER_PORT),
      Map.entry("--info-port", ServerKeys.MASTER_INFO_PORT));

  private StandaloneMain() {}

  public static void main(String[] args) throws Exception {
    BasaltConfig settings;
    try {
      settings = ConfigArgs.loadStrict(args, ALIASES);
    } catch (InvalidConfigException | IllegalArgumentException e) {
      fail(e.getMessage());
      return;
    }
    settings.warnings().forEach(LOG::warn);
    StandaloneServer server;
    try {
      server = new StandaloneServer(new StandaloneConfig(settings));
    } catch (java.net.BindException e) {
      fail("a port is already in use (" + e.getMessage() + "): is another Basalt or HBase running? Choose ports with "
          + "-Dhbase.zookeeper.property.clientPort=, -Dhbase.master.port=, -Dhbase.regionserver.port=, "
          + "-Dhbase.master.info.port=");
      return;
    }
    StatusServer status = null;
    StandaloneConfig config = new StandaloneConfig(settings);
    if (config.infoPort() >= 0) {
      try {
        status = StatusServer.standalone(server.masterNode(), server.regionServerNode(), config.host(), config.infoPort());
      } catch (java.net.BindException e) {
        server.close();
        fail("the info port " + config.infoPort() + " is already in use; choose another with -Dhbase.master.info.port=P "
            + "(-1 turns the web UI off)");
        return;
      }
    }
    StatusServer web = status;
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (web != null) {
        web.close();
      }
      server.close();
      stopped.countDown();
    }, "basalt-shutdown"));
    System.out.println("Basalt standalone is up: hbase.zookeeper.quorum=" + server.zookeeperQuorum()
        + " hbase.zookeeper.property.clientPort=" + server.zookeeperPort()
        + (web == null ? "" : ", web UI and /metrics on http://" + config.host() + ":" + web.address().getPort() + "/"));
    stopped.await();
  }

  private static void fail(String message) {
    System.err.println("basalt standalone: " + message);
    System.exit(2);
  }
}
