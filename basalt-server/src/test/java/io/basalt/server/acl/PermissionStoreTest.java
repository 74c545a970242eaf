package io.basalt.server.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.rpc.CallController;
import io.basalt.server.rpc.Caller;
import io.basalt.server.zk.EmbeddedZooKeeper;
import io.basalt.server.zk.ZooKeeperClients;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.security.access.ShadedAccessControlUtil;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AccessControlProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Grants in ZooKeeper: replace vs merge, revoke, concurrent changes, damaged records, other servers' views. */
@Timeout(60)
class PermissionStoreTest {
  private static final TableName T = TableName.valueOf("t");

  @TempDir Path dir;
  private EmbeddedZooKeeper zooKeeper;
  private CuratorFramework zk;

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new EmbeddedZooKeeper(new InetSocketAddress("127.0.0.1", 0), dir);
    zk = ZooKeeperClients.connect(zooKeeper.connectString(), 10_000);
  }

  @AfterEach
  void stop() {
    zk.close();
    zooKeeper.close();
  }

  private static UserPermission on(String user, Action... actions) {
    return new UserPermission(user, Permission.newBuilder(T).withActions(actions).build());
  }

  private static List<Action> actionsOf(PermissionStore store, String entry, String user) throws IOException {
    return store.all().getOrDefault(entry, java.util.Map.of()).getOrDefault(user, List.of()).stream()
        .flatMap(p -> java.util.Arrays.stream(p.getActions())).sorted().toList();
  }

  @Test
  void grantsReplaceOrMergeAndRevokesSubtract() throws Exception {
    PermissionStore store = new PermissionStore(zk, "/basalt");
    store.grant(on("alice", Action.READ), false);
    store.grant(on("alice", Action.WRITE), false); // replaces, as HBase's grant without merge
    assertThat(actionsOf(store, "t", "alice")).containsExactly(Action.WRITE);
    store.grant(on("alice", Action.READ), true);
    assertThat(actionsOf(store, "t", "alice")).containsExactly(Action.READ, Action.WRITE);
    store.grant(new UserPermission("alice", Permission.newBuilder(T).withFamily(Bytes.toBytes("f"))
        .withActions(Action.ADMIN).build()), false); // another scope of the same user: kept apart
    assertThat(store.all().get("t").get("alice")).hasSize(2);
    store.revoke(on("alice", Action.WRITE));
    assertThat(actionsOf(store, "t", "alice")).containsExactly(Action.READ, Action.ADMIN);
    store.revoke(new UserPermission("alice", Permission.newBuilder(T).withFamily(Bytes.toBytes("f")).build()));
    assertThat(actionsOf(store, "t", "alice")).containsExactly(Action.READ); // no actions: the whole grant
    store.revoke(on("alice", Action.READ));
    assertThat(store.all()).doesNotContainKey("t"); // an empty entry goes
    assertThatThrownBy(() -> store.grant(on("bob"), false)).isInstanceOf(DoNotRetryIOException.class)
        .hasMessage("No actions associated with user 'bob'");
  }

  @Test
  void concurrentGrantsOfOneEntryAreAllKept() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Void>> tasks = new java.util.ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String user = "u" + i;
        tasks.add(() -> {
          new PermissionStore(zk, "/basalt").grant(on(user, Action.READ), false);
          return null;
        });
      }
      for (Future<Void> f : pool.invokeAll(tasks)) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(new PermissionStore(zk, "/basalt").all().get("t")).hasSize(40);
  }

  @Test
  void aDamagedRecordIsRefusedNotHalfRead() throws Exception {
    PermissionStore store = new PermissionStore(zk, "/basalt");
    store.grant(on("alice", Action.READ), false);
    byte[] data = zk.getData().forPath("/basalt/acl/t");
    data[data.length - 1] ^= 1;
    zk.setData().forPath("/basalt/acl/t", data);
    assertThatThrownBy(store::all).isInstanceOf(IOException.class).hasMessageContaining("checksum");
  }

  @Test
  void tablesAndNamespacesTakeTheirGrantsWithThem() throws Exception {
    PermissionStore store = new PermissionStore(zk, "/basalt");
    store.grant(on("alice", Action.READ), false);
    store.grant(new UserPermission("bob", Permission.newBuilder("ns").withActions(Action.CREATE).build()), false);
    store.removeTable(T);
    store.removeNamespace("ns");
    assertThat(store.all()).isEmpty();
  }

  private static CallController as(String user) {
    return new CallController(List.of(), false, new Caller(user, false, null), 0);
  }

  @Test
  void aGrantThroughTheWireIsInForceOnAnotherServerWithinASecond() throws Exception {
    Path audit = dir.resolve("audit.log");
    AccessSettings settings = new AccessSettings(true, java.util.Set.of("boss"), java.util.Set.of(), "", audit.toString());
    CuratorFramework other = ZooKeeperClients.connect(zooKeeper.connectString(), 10_000);
    try (Authorization master = Authorization.start(zk, "/basalt", settings, n -> List.of());
        Authorization regionServer = Authorization.start(other, "/basalt", settings, n -> List.of())) {
      AclServiceHandler handler = Authorization.handlerOf(master);
      AccessControlProtos.GrantRequest grant = AccessControlProtos.GrantRequest.newBuilder()
          .setUserPermission(ShadedAccessControlUtil.toUserPermission(on("alice", Action.READ))).build();
      assertThatThrownBy(() -> handler.grant(as("alice"), grant)).isInstanceOf(AccessDeniedException.class);
      handler.grant(as("boss"), grant);
      AccessControlProtos.HasUserPermissionsRequest ask = AccessControlProtos.HasUserPermissionsRequest.newBuilder()
          .addPermission(ShadedAccessControlUtil.toPermission(Permission.newBuilder(T).withActions(Action.READ).build()))
          .build();
      AclServiceHandler remote = Authorization.handlerOf(regionServer);
      long deadline = System.nanoTime() + 1_000_000_000L;
      boolean seen = false;
      while (!seen && System.nanoTime() < deadline) {
        seen = remote.hasUserPermissions(as("alice"), ask).getHasUserPermission(0);
        Thread.sleep(10);
      }
      assertThat(seen).as("the grant is seen by the other server within a second").isTrue();
      handler.revoke(as("boss"), AccessControlProtos.RevokeRequest.newBuilder()
          .setUserPermission(grant.getUserPermission()).build());
      deadline = System.nanoTime() + 1_000_000_000L;
      while (seen && System.nanoTime() < deadline) {
        seen = remote.hasUserPermissions(as("alice"), ask).getHasUserPermission(0);
        Thread.sleep(10);
      }
      assertThat(seen).as("the revoke is seen within a second").isFalse();
    } finally {
      other.close();
    }
    String log = Files.readString(audit);
    assertThat(log).contains("Access denied for user alice; reason: Insufficient permissions; request: grant");
    assertThat(log).contains("Access allowed for user boss").contains("request: revoke");
  }

  @Test
  void withAuthorisationOffPermissionCallsAreRefusedAsByHBase() {
    AclServiceHandler off = Authorization.handlerOf(null);
    assertThatThrownBy(() -> off.grant(as("boss"), AccessControlProtos.GrantRequest.newBuilder()
        .setUserPermission(ShadedAccessControlUtil.toUserPermission(on("alice", Action.READ))).build()))
        .isInstanceOf(DoNotRetryIOException.class)
        .hasMessageContaining("org.apache.hadoop.hbase.security.access.AccessController is not loaded");
  }
}
