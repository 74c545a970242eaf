package io.basalt.server.master;

import io.basalt.server.acl.Authorization;
import io.basalt.server.lifecycle.Resources;
import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.PendingDrops;
import io.basalt.server.catalog.DecommissionedServers;
import io.basalt.server.catalog.Primaries;
import io.basalt.server.catalog.TransactionStore;
import io.basalt.server.control.PrefetchReports;
import io.basalt.server.control.ControlClient;
import io.basalt.server.control.RemoteRegionServer;
import io.basalt.server.regionserver.ClientServiceHandler;
import io.basalt.server.regionserver.RegionServer;
import io.basalt.server.registry.ClientMetaServiceHandler;
import io.basalt.server.registry.ZooKeeperRegistry;
import io.basalt.server.rpc.CallDispatcher;
import io.basalt.server.rpc.RpcClient;
import io.basalt.server.rpc.RpcServer;
import io.basalt.server.auth.AuthenticationServiceHandler;
import io.basalt.server.auth.TokenService;
import io.basalt.server.rpc.ServiceProxy;
import io.basalt.server.security.ServerSecurity;
import io.basalt.server.zk.ZooKeeperClients;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.ClientMetaService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One master process. All masters take part in a ZooKeeper leader election; the winner loads the catalog,
 * starts serving MasterService and {@code hbase:meta}, publishes itself in HBase's registry znodes and
 * watches the region servers' registrations. A standby listens on its port but serves nothing until it
 * wins. A master that loses its leadership stops at once ({@code onLeadershipLost}), as HBase's does.
 */
public final class MasterNode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MasterNode.class);
  private static final int CONTROL_TIMEOUT_MILLIS = 120_000;
  private static final long JOIN_BALANCE_DELAY_SECONDS = 3;
  /** How often re-replication looks for members to rebuild (planning reads the catalog in memory). */
  private static final long REPAIR_PERIOD_MILLIS = 2_000;

  private final Resources resources = new Resources();
  private final MasterConfig config;
  private final CuratorFramework zk;
  private final CallDispatcher dispatcher = new CallDispatcher();
  private final RpcServer rpc;
  private final ServerName name;
  private final RpcClient rpcClient;
  private final ScheduledExecutorService events =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "basalt-master-events"));
  private final ScheduledExecutorService balancer =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "basalt-balancer"));
  private final ScheduledExecutorService repairs =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "basalt-rereplication"));
  private final CountDownLatch active = new CountDownLatch(1);
  private final Runnable onLeadershipLost;
  private final ServerSecurity security;
  private volatile Catalog catalog;
  private volatile Master master;
  private volatile boolean closing;

  /** A master whose region servers run in this JVM (standalone, tests): the in-process secret, no TLS. */
  public MasterNode(MasterConfig config, Runnable onLeadershipLost) throws IOException {
    this(config, onLeadershipLost, ServerSecurity.inProcess());
  }

  /** {@code security} is closed with this master. */
  public MasterNode(MasterConfig config, Runnable onLeadershipLost, ServerSecurity security) throws IOException {
    this.config = config;
    this.onLeadershipLost = onLeadershipLost;
    this.security = security;
    boolean ok = false;
    try {
      track(security);
      zk = ZooKeeperClients.connect(config.zookeeper(), config.sessionTimeoutMillis(),
          security.zookeeperClient(), security.zookeeperAcls(config.hbaseZnodeParent()));
      track(zk::close);
      rpc = track(new RpcServer("master", new InetSocketAddress(config.host(), config.port()), dispatcher,
          () -> catalog == null ? "" : catalog.clusterId(), config.rpc(), security));
      name = ServerName.valueOf(config.host(), rpc.address().getPort(), System.currentTimeMillis());
      rpcClient = track(new RpcClient("basalt-master", 5_000, security.connector()));
      track(() -> {
        balancer.shutdownNow();
        repairs.shutdownNow();
        events.shutdownNow();
        events.awaitTermination(10, TimeUnit.SECONDS);
      });
      LeaderLatch latch = new LeaderLatch(zk, config.root() + "/master-election", name.getServerName());
      latch.addListener(new LeaderLatchListener() {
        @Override
        public void isLeader() {
          events.execute(MasterNode.this::becomeActive);
        }

        @Override
        public void notLeader() {
          if (!closing) {
            LOG.error("master {} lost its leadership; stopping", name);
            onLeadershipLost.run();
          }
        }
      });
      registry().publishBackupMaster(name, -1);
      latch.start();
      track(latch::close);
      LOG.info("master {} started, waiting to be elected", name);
      ok = true;
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("starting the master failed: " + e.getMessage(), e);
    } finally {
      if (!ok) {
        close();
      }
    }
  }

  /** HBase's registry znodes, written under HBase's identifier for a master ("master:<port>"). */
  private ZooKeeperRegistry registry() {
    return new ZooKeeperRegistry(zk, config.hbaseZnodeParent(), "master:" + name.getPort());
  }

  private <T extends AutoCloseable> T track(T resource) {
    return resources.track(resource);
  }

  private void becomeActive() {
    try {
      Catalog c = new Catalog(zk, config.root());
      c.load();
      catalog = c;
      ServerManager servers = new ServerManager(s -> new RemoteRegionServer(new ControlClient(rpcClient, s,
          CONTROL_TIMEOUT_MILLIS)));
      Primaries primaries = null;
      if (config.replication()) {
        primaries = track(new Primaries(zk, config.root()));
        primaries.watch();
      }
      Master m = new Master(c, servers, name, new TransactionStore(zk, config.root()),
          new PendingDrops(zk, config.root()), new PrefetchReports(zk, config.root()), config.balancePauseMillis(), primaries, config.replicationFactor());
      ReplicaRepairChore repair = new ReplicaRepairChore(m, m.views(), config.rereplicateAfterMillis(), () -> !closing);
      m.replicas().reportRepairs(repair::lastPlan);
      Runnable repairNow = () -> {
        try {
          repairs.execute(() -> runRepair(repair));
        } catch (java.util.concurrent.RejectedExecutionException closing) {
          // this master is stopping
        }
      };
      Decommissioning decommissioning = new Decommissioning(
          new DecommissionedServers(zk, config.hbaseZnodeParent()), m, repairNow, repairs);
      decommissioning.load();
      MetaView meta = new MetaView(c, primaries);
      RegionServer metaServer = RegionServer.metaOnly(name, meta, io.basalt.server.regionserver.ScannerLimits.DEFAULT);
      track(metaServer);
      MasterServiceHandler masterService = new MasterServiceHandler(m, decommissioning);
      // The master hosts hbase:meta only, which everyone may read: no table families needed.
      Authorization auth = Authorization.start(zk, config.root(), security.access(), regionName -> java.util.List.of());
      if (auth != null) {
        track(auth);
        dispatcher.guard(auth);
      }
      dispatcher.register(MasterService.newReflectiveBlockingService(ServiceProxy.of(
          MasterService.BlockingInterface.class, "MasterService", masterService,
          new SnapshotServiceHandler(new Snapshots(m), masterService, auth != null), Authorization.handlerOf(auth))));
      if (auth != null) {
        auth.snapshotFacts(new MasterSnapshotFacts(m.catalog()));
      }
      dispatcher.register(ClientService.newReflectiveBlockingService(ServiceProxy.of(
          ClientService.BlockingInterface.class, "ClientService", new ClientServiceHandler(metaServer),
          new io.basalt.server.rpc.CoprocessorEndpoints(new AuthenticationServiceHandler(security.authentication())))));
      TokenService.attach(security, zk, config.root(), c::clusterId);
      dispatcher.register(ClientMetaService.newReflectiveBlockingService(ServiceProxy.of(
          ClientMetaService.BlockingInterface.class, "ClientMetaService",
          new ClientMetaServiceHandler(c::clusterId, () -> name, () -> name))));
      dispatcher.markReady();
      master = m;
      watchServers(m, repairNow);
      events.scheduleWithFixedDelay(m::retryReconcile, 2, 2, TimeUnit.SECONDS);
      // Also without replication: a decommissioned server's regions are moved away by the same chore.
      repairs.scheduleWithFixedDelay(() -> runRepair(repair), REPAIR_PERIOD_MILLIS, REPAIR_PERIOD_MILLIS,
          TimeUnit.MILLISECONDS);
      balancer.scheduleWithFixedDelay(() -> runBalancer(m), config.balancerPeriodMillis(),
          config.balancerPeriodMillis(), TimeUnit.MILLISECONDS);
      registry().publish(c.clusterId(), name, -1, name);
      LOG.info("master {} is active", name);
      active.countDown();
    } catch (Exception e) {
      LOG.error("master {} could not become active; stopping", name, e);
      onLeadershipLost.run();
    }
  }

  /** Region servers come and go as ephemeral znodes; each change is handled in order on the event thread. */
  private void watchServers(Master m, Runnable repairNow) throws Exception {
    String dir = config.root() + "/servers";
    zk.create().orSetData().creatingParentsIfNeeded().forPath(dir);
    CuratorCache cache = CuratorCache.build(zk, dir);
    cache.listenable().addListener(CuratorCacheListener.builder()
        .forCreatesAndChanges((old, node) -> serverEvent(m, dir, node.getPath(), true, repairNow))
        .forDeletes(node -> serverEvent(m, dir, node.getPath(), false, repairNow))
        .forInitialized(() -> events.execute(m::reconcile))
        .build());
    cache.start();
    track(cache::close);
  }

  private void serverEvent(Master m, String dir, String path, boolean up, Runnable repairNow) {
    if (path.length() <= dir.length() + 1) {
      return;
    }
    ServerName server = ServerName.valueOf(path.substring(dir.length() + 1));
    events.execute(() -> {
      if (up) {
        boolean joined = !m.servers().isLive(server);
        m.serverUp(server);
        if (joined) {
          // A server that joins gets its fair share soon, one move at a time.
          balancer.schedule(() -> runBalancer(m), JOIN_BALANCE_DELAY_SECONDS, TimeUnit.SECONDS);
          // A degraded region (placed while too few servers were up) gains its missing members now.
          repairNow.run();
        }
      } else {
        m.serverDown(server);
      }
    });
  }

  private static void runRepair(ReplicaRepairChore repair) {
    try {
      int steps = repair.run();
      if (steps > 0) {
        LOG.info("re-replication made {} changes", steps);
      }
    } catch (RuntimeException e) {
      LOG.warn("re-replication run failed", e);
    }
  }

  private static void runBalancer(Master m) {
    try {
      if (m.balancerOn()) {
        int moves = m.balance();
        if (moves > 0) {
          LOG.info("balancer made {} moves", moves);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("balancer run failed", e);
    }
  }

  /** Waits until this master is the active one; false on timeout. */
  public boolean awaitActive(long timeout, TimeUnit unit) throws InterruptedException {
    return active.await(timeout, unit);
  }

  public boolean isActive() {
    return active.getCount() == 0;
  }

  /** TLS and the cluster secret of this process. */
  public ServerSecurity security() {
    return security;
  }

  public ServerName serverName() {
    return name;
  }

  public InetSocketAddress address() {
    return rpc.address();
  }

  /** Runs this master's RPC calls (for a metrics listener). */
  public CallDispatcher dispatcher() {
    return dispatcher;
  }

  /** The active master's logic (null while standing by). */
  public Master master() {
    return master;
  }

  @Override
  public void close() {
    closing = true;
    resources.close();
  }
}
