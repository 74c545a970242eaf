package io.basalt.server.regionserver;

import io.basalt.server.catalog.Primaries;
import io.basalt.server.acl.Authorization;
import io.basalt.server.lifecycle.Resources;
import io.basalt.server.control.ControlEndpoint;
import io.basalt.server.control.ControlServiceHandler;
import io.basalt.server.registry.ClientMetaServiceHandler;
import io.basalt.server.control.PrefetchReports;
import io.basalt.server.registry.ZooKeeperRegistry;
import io.basalt.server.rpc.CallDispatcher;
import io.basalt.server.rpc.CoprocessorEndpoints;
import io.basalt.server.rpc.RpcClient;
import io.basalt.server.rpc.RpcServer;
import io.basalt.server.auth.AuthenticationServiceHandler;
import io.basalt.server.auth.TokenService;
import io.basalt.server.rpc.ServiceProxy;
import io.basalt.server.security.MemberChannelGuard;
import io.basalt.server.security.ServerSecurity;
import io.basalt.server.transfer.SegmentFetcher;
import io.basalt.server.transfer.SegmentServer;
import io.basalt.server.zk.ZooKeeperClients;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.region.StorageEngine;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SplitTableRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SplitTableRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.ClientMetaService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One region server process: its storage engine and regions, its RPC port (ClientService for clients and
 * the master's control calls, AdminService, the RPC registry), and its ZooKeeper registration and lease.
 */
public final class RegionServerNode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionServerNode.class);
  /** How often a primary checks that ZooKeeper still names it (a report can lose a race with an older one). */
  private static final long PRIMARY_RECHECK_MILLIS = 5_000;

  private final Resources resources = new Resources();
  private final RpcServer rpc;
  private final RegionServer regionServer;
  private final CallDispatcher dispatcher = new CallDispatcher();
  private final JeStorageEngine engine;
  private final ServerSecurity security;

  /** A region server whose master runs in this JVM (standalone, tests): the in-process secret, no TLS. */
  public RegionServerNode(RegionServerConfig config) throws IOException {
    this(config, ServerSecurity.inProcess());
  }

  /** {@code security} is closed with this server. */
  public RegionServerNode(RegionServerConfig config, ServerSecurity security) throws IOException {
    this.security = security;
    boolean ok = false;
    try {
      track(security);
      Files.createDirectories(config.dataDir());
      CuratorFramework zk = ZooKeeperClients.connect(config.zookeeper(), config.sessionTimeoutMillis(),
          security.zookeeperClient(), security.zookeeperAcls(config.hbaseZnodeParent()));
      track(zk::close);
      ZooKeeperRegistry registry = new ZooKeeperRegistry(zk, config.hbaseZnodeParent(), "regionserver");
      rpc = track(new RpcServer("regionserver", new InetSocketAddress(config.host(), config.port()), dispatcher,
          () -> clusterIdOrEmpty(registry), config.rpc(), security));
      ServerName name = ServerName.valueOf(config.host(), rpc.address().getPort(), System.currentTimeMillis());
      boolean replicated = config.replicationPorts() != null;
      ServerLease.PauseRule pauses = replicated ? PauseMonitor.replicaGroupRule() : ServerLease.PauseRule.NONE;
      ServerLease lease = new ServerLease(TimeUnit.MILLISECONDS.toNanos(config.sessionTimeoutMillis()) / 2, pauses,
          System::nanoTime);
      if (replicated) {
        track(new PauseMonitor(lease, pauses));
      }
      engine = track(new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(config.cacheBytes())));
      engine.guardReplication(new MemberChannelGuard(security.secret(), security.memberTls()));
      regionServer = track(new RegionServer(name, engine, config.dataDir(), config.scanners(), lease));
      Files.createDirectories(config.dataDir().resolve("regions"));
      if (replicated) {
        PrimaryReporter reporter = track(new PrimaryReporter(new Primaries(zk, config.root()), name,
            regionServer::hostedByEncodedName, regionServer::primaryMembers, lease, PRIMARY_RECHECK_MILLIS));
        regionServer.enableReplication(config.host(), config.replicationPorts(), reporter);
      }
      regionServer.enableMoves(SegmentServer.start(config.dataDir().resolve("regions"),
          new InetSocketAddress(config.host(), 0), SegmentServer.Options.DEFAULT, security.secret(), security.memberTls()),
          new SegmentFetcher(SegmentFetcher.Options.DEFAULT, security.internalConnector()), new PrefetchReports(zk, config.root()));

      RegionServer hosted = regionServer;
      Authorization auth = Authorization.start(zk, config.root(), security.access(), regionName -> {
        try {
          return java.util.List.copyOf(hosted.lookup().anyCopy(regionName).table().getColumnFamilyNames());
        } catch (IOException | RuntimeException notHere) {
          return java.util.List.of(); // checked as a read of no family: refused unless the table is granted
        }
      });
      if (auth != null) {
        track(auth);
        dispatcher.guard(auth);
      }
      dispatcher.register(ClientService.newReflectiveBlockingService(ServiceProxy.of(ClientService.BlockingInterface.class,
          "ClientService", new ClientServiceHandler(regionServer),
          new ControlServiceHandler(ControlEndpoint.of(regionServer), name),
          new CoprocessorEndpoints(new AuthenticationServiceHandler(security.authentication()),
              Authorization.handlerOf(auth), new BulkLoadHandler(regionServer)))));
      TokenService.attach(security, zk, config.root(), () -> clusterIdOrEmpty(registry));
      dispatcher.register(AdminService.newReflectiveBlockingService(ServiceProxy.of(AdminService.BlockingInterface.class,
          "AdminService", new AdminServiceHandler(regionServer))));
      dispatcher.register(ClientMetaService.newReflectiveBlockingService(ServiceProxy.of(
          ClientMetaService.BlockingInterface.class, "ClientMetaService",
          new ClientMetaServiceHandler(registry::clusterId, registry::master, registry::metaServer))));
      dispatcher.markReady();

      RpcClient rpcClient = track(new RpcClient("basalt-regionserver", 5_000, security.connector()));
      ScheduledExecutorService chores = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "basalt-split-check");
        t.setDaemon(true);
        return t;
      });
      track(chores::shutdownNow);
      SplitTrigger trigger = new SplitTrigger(regionServer, config.splitBytes(), config.splitCells(),
          region -> requestSplit(rpcClient, registry, region));
      chores.scheduleWithFixedDelay(trigger, config.splitCheckMillis(), config.splitCheckMillis(), TimeUnit.MILLISECONDS);

      if (config.warmupRounds() > 0) {
        EngineWarmup.run(engine, config.dataDir().resolve("warmup.tmp"), config.warmupRounds());
      }
      ServerRegistration registration = track(new ServerRegistration(zk, config.root(), name, lease,
          config.sessionTimeoutMillis(), regionServer::closeAll));
      registration.start();
      // Written under HBase's identifier for a region server ("regionserver:<port>"); no info server: port -1.
      new ZooKeeperRegistry(zk, config.hbaseZnodeParent(), "regionserver:" + name.getPort()).publishRegionServer(name, -1);
      LOG.info("region server {} up, data in {}", name, config.dataDir().toAbsolutePath());
      ok = true;
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("starting the region server failed: " + e.getMessage(), e);
    } finally {
      if (!ok) {
        close();
      }
    }
  }

  /** Asks the active master to split a region, as {@code Admin.splitRegionAsync} would. */
  private static void requestSplit(RpcClient rpc, ZooKeeperRegistry registry, RegionInfo region) {
    try {
      ServerName master = registry.master();
      rpc.call(new InetSocketAddress(master.getHostname(), master.getPort()), "MasterService", "SplitRegion",
          SplitTableRegionRequest.newBuilder().setRegionInfo(ProtobufUtil.toRegionInfo(region)).build(),
          SplitTableRegionResponse.getDefaultInstance(), 120_000);
    } catch (IOException e) {
      LOG.warn("split request for {} failed: {}", region.getRegionNameAsString(), e.toString());
    }
  }

  private static String clusterIdOrEmpty(ZooKeeperRegistry registry) {
    try {
      return registry.clusterId();
    } catch (IOException e) {
      return "";
    }
  }

  private <T extends AutoCloseable> T track(T resource) {
    return resources.track(resource);
  }

  /** TLS and the cluster secret of this process. */
  public ServerSecurity security() {
    return security;
  }

  public ServerName serverName() {
    return regionServer.serverName();
  }

  public InetSocketAddress address() {
    return rpc.address();
  }

  public RegionServer regionServer() {
    return regionServer;
  }

  /** Runs this server's RPC calls (for a metrics listener). */
  public CallDispatcher dispatcher() {
    return dispatcher;
  }

  /** The storage engine of this server's regions (for its statistics). */
  public StorageEngine storageEngine() {
    return engine;
  }

  /** Leaves ZooKeeper first (the master stops sending work), then closes regions cleanly (logs synced). */
  @Override
  public void close() {
    resources.close();
  }
}
