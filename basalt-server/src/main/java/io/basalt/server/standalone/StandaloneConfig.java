package io.basalt.server.standalone;

import io.basalt.server.config.ConfigKey;
import io.basalt.server.config.InvalidConfigException;
import io.basalt.server.config.ReplicationKeys;
import io.basalt.server.config.RpcKeys;

import io.basalt.server.config.BalancerKeys;
import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ServerKeys;
import io.basalt.server.config.ScannerKeys;
import io.basalt.server.config.SplitKeys;
import io.basalt.server.config.StorageKeys;
import io.basalt.server.config.ZooKeeperKeys;
import io.basalt.server.master.MasterConfig;
import io.basalt.server.regionserver.RegionServerConfig;
import io.basalt.server.regionserver.ScannerLimits;
import io.basalt.server.rpc.RpcLimits;
import java.nio.file.Path;

/**
 * Where a standalone Basalt keeps its data and listens, read from the typed configuration ({@link ServerKeys},
 * {@link ZooKeeperKeys}, ...). Port 0 picks a free port (tests). Defaults are HBase's: ZooKeeper 2181,
 * master 16000, region server 16020, web UI 16010.
 */
public record StandaloneConfig(BasaltConfig settings) {
  public static StandaloneConfig defaults(Path dataDir) {
    return new StandaloneConfig(BasaltConfig.defaults().with(ServerKeys.DATA_DIR, dataDir.toString()));
  }

  public StandaloneConfig withPorts(int zk, int master, int rs) {
    return new StandaloneConfig(settings.with(ZooKeeperKeys.CLIENT_PORT, Integer.toString(zk))
        .with(ServerKeys.MASTER_PORT, Integer.toString(master)).with(ServerKeys.REGIONSERVER_PORT, Integer.toString(rs)));
  }

  public StandaloneConfig withInfoPort(int port) {
    return new StandaloneConfig(settings.with(ServerKeys.MASTER_INFO_PORT, Integer.toString(port)));
  }

  public Path dataDir() {
    return Path.of(settings.get(ServerKeys.DATA_DIR));
  }

  public String host() {
    return settings.get(ServerKeys.HOST);
  }

  public int zookeeperPort() {
    return settings.get(ZooKeeperKeys.CLIENT_PORT);
  }

  public Path zookeeperDataDir() {
    return ZooKeeperKeys.dataDir(settings);
  }

  public int masterPort() {
    return settings.get(ServerKeys.MASTER_PORT);
  }

  public int regionServerPort() {
    return settings.get(ServerKeys.REGIONSERVER_PORT);
  }

  /** The one HTTP port of the process (status pages and /metrics); -1 for none. */
  public int infoPort() {
    return settings.get(ServerKeys.MASTER_INFO_PORT);
  }

  public long cacheBytes() {
    return settings.get(StorageKeys.CACHE_BYTES);
  }

  public String zookeeperParent() {
    return settings.get(ZooKeeperKeys.ZNODE_PARENT);
  }

  /** The master's settings, given the embedded ZooKeeper's connect string. */
  public MasterConfig masterConfig(String zookeeper) {
    if (settings.isSet(ReplicationKeys.FACTOR) && settings.get(ReplicationKeys.FACTOR) > 1) {
      throw new InvalidConfigException(ReplicationKeys.FACTOR.name() + "=" + settings.get(ReplicationKeys.FACTOR)
          + " asks for that many copies of each region, but standalone runs one region server, which keeps one: run a "
          + "cluster (bin/basalt-cluster) for replication");
    }
    return new MasterConfig(host(), masterPort(), zookeeper, settings.get(ZooKeeperKeys.BASALT_ROOT), zookeeperParent(),
        settings.get(ZooKeeperKeys.SESSION_TIMEOUT), settings.get(BalancerKeys.PERIOD),
        settings.get(BalancerKeys.MOVE_PAUSE), false, 1,
        ReplicationKeys.REREPLICATE_AFTER.defaultValue(), rpcLimits(RpcKeys.MASTER_HANDLERS));
  }

  /** The region server's settings, given the embedded ZooKeeper's connect string. */
  public RegionServerConfig regionServerConfig(String zookeeper) {
    return new RegionServerConfig(dataDir(), host(), regionServerPort(), zookeeper,
        settings.get(ZooKeeperKeys.BASALT_ROOT), zookeeperParent(),
        settings.get(ZooKeeperKeys.SESSION_TIMEOUT), cacheBytes(),
        settings.get(SplitKeys.MAX_REGION_BYTES), settings.get(SplitKeys.MAX_REGION_CELLS),
        settings.get(SplitKeys.CHECK_INTERVAL), null,
        new ScannerLimits(settings.get(ScannerKeys.LEASE), settings.get(ScannerKeys.MAX_RESULT_SIZE)),
        settings.get(StorageKeys.WARMUP_ROUNDS), rpcLimits(RpcKeys.REGIONSERVER_HANDLERS));
  }

  private RpcLimits rpcLimits(ConfigKey<Integer> handlers) {
    return new RpcLimits(settings.get(handlers), settings.get(RpcKeys.MAX_REQUEST_SIZE).intValue());
  }
}
