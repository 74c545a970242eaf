package io.basalt.server.standalone;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.master.Master;
import io.basalt.server.master.MasterServiceHandler;
import io.basalt.server.master.MetaView;
import io.basalt.server.regionserver.AdminServiceHandler;
import io.basalt.server.regionserver.ClientServiceHandler;
import io.basalt.server.regionserver.RegionServer;
import io.basalt.server.registry.ClientMetaServiceHandler;
import io.basalt.server.registry.ZooKeeperRegistry;
import io.basalt.server.rpc.CallDispatcher;
import io.basalt.server.rpc.RpcServer;
import io.basalt.server.rpc.ServiceProxy;
import io.basalt.server.zk.EmbeddedZooKeeper;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.je.JeStorageEngine;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.ClientMetaService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JVM with everything: an embedded ZooKeeper, the master and one region server, data under one
 * directory. Both RPC ports serve every service (clients pick the port by role).
 */
public final class StandaloneServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StandaloneServer.class);
  private static final int MAX_REQUEST_BYTES = 256 << 20;

  private final List<AutoCloseable> resources = new ArrayList<>();
  private final EmbeddedZooKeeper zookeeper;
  private final RpcServer masterRpc;
  private final RpcServer regionServerRpc;
  private final Master master;

  public StandaloneServer(StandaloneConfig config) throws IOException, InterruptedException {
    boolean ok = false;
    try {
      Files.createDirectories(config.dataDir());
      zookeeper = track(new EmbeddedZooKeeper(new InetSocketAddress(config.host(), config.zookeeperPort()),
          config.dataDir().resolve("zookeeper")));
      CuratorFramework zk = CuratorFrameworkFactory.newClient(zookeeper.connectString(), 30_000, 10_000,
          new ExponentialBackoffRetry(200, 5));
      zk.start();
      track(zk::close);
      if (!zk.blockUntilConnected(30, java.util.concurrent.TimeUnit.SECONDS)) {
        throw new IOException("cannot connect to ZooKeeper at " + zookeeper.connectString());
      }
      Catalog catalog = new Catalog(zk, "/basalt");
      catalog.load();

      CallDispatcher dispatcher = new CallDispatcher();
      masterRpc = track(new RpcServer("master", new InetSocketAddress(config.host(), config.masterPort()), dispatcher,
          catalog::clusterId, 16, MAX_REQUEST_BYTES));
      regionServerRpc = track(new RpcServer("regionserver", new InetSocketAddress(config.host(), config.regionServerPort()),
          dispatcher, catalog::clusterId, 32, MAX_REQUEST_BYTES));
      long startCode = System.currentTimeMillis();
      ServerName rsName = ServerName.valueOf(config.host(), regionServerRpc.address().getPort(), startCode);
      ServerName masterName = ServerName.valueOf(config.host(), masterRpc.address().getPort(), startCode);

      JeStorageEngine engine = track(new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(config.cacheBytes())));
      RegionServer regionServer = track(new RegionServer(rsName, engine, config.dataDir(), 60_000));
      master = new Master(catalog, regionServer, masterName);
      regionServer.serveMeta(new MetaView(catalog));

      dispatcher.register(ClientService.newReflectiveBlockingService(
          ServiceProxy.of(ClientService.BlockingInterface.class, new ClientServiceHandler(regionServer), "ClientService")));
      dispatcher.register(AdminService.newReflectiveBlockingService(
          ServiceProxy.of(AdminService.BlockingInterface.class, new AdminServiceHandler(regionServer), "AdminService")));
      dispatcher.register(MasterService.newReflectiveBlockingService(
          ServiceProxy.of(MasterService.BlockingInterface.class, new MasterServiceHandler(master), "MasterService")));
      dispatcher.register(ClientMetaService.newReflectiveBlockingService(ServiceProxy.of(
          ClientMetaService.BlockingInterface.class,
          new ClientMetaServiceHandler(catalog::clusterId, () -> masterName, () -> rsName), "ClientMetaService")));

      master.assignAll();
      new ZooKeeperRegistry(zk, config.zookeeperParent()).publish(catalog.clusterId(), masterName, -1, rsName);
      LOG.info("Basalt standalone ready: ZooKeeper {}, master {}, region server {}, data in {}",
          zookeeper.connectString(), masterName, rsName, config.dataDir().toAbsolutePath());
      ok = true;
    } finally {
      if (!ok) {
        close();
      }
    }
  }

  private <T extends AutoCloseable> T track(T resource) {
    resources.add(resource);
    return resource;
  }

  public String zookeeperQuorum() {
    return zookeeper.address().getHostString();
  }

  public int zookeeperPort() {
    return zookeeper.address().getPort();
  }

  public InetSocketAddress masterAddress() {
    return masterRpc.address();
  }

  public InetSocketAddress regionServerAddress() {
    return regionServerRpc.address();
  }

  public Master master() {
    return master;
  }

  /** Closes in reverse order of start: RPC first, then regions (logs synced), then ZooKeeper. */
  @Override
  public void close() {
    List<AutoCloseable> reversed = new ArrayList<>(resources);
    java.util.Collections.reverse(reversed);
    resources.clear();
    for (AutoCloseable r : reversed) {
      try {
        r.close();
      } catch (Exception e) {
        LOG.warn("error while stopping {}", r, e);
      }
    }
  }
}
