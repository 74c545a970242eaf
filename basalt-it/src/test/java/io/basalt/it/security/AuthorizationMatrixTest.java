package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.target.HBaseTarget;
import io.basalt.it.target.Targets;
import io.basalt.server.config.SecurityKeys;
import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.protobuf.generated.AccessControlProtos;
import org.apache.hadoop.hbase.protobuf.generated.AccessControlProtos.AccessControlService;
import org.apache.hadoop.hbase.security.access.AccessControlUtil;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authorisation through the unmodified HBase client: the permission matrix ({@link PermissionMatrix}) against
 * Basalt with {@code hbase.security.authorization=true}, checked against fixed expectations and, unless
 * {@code -Dbasalt.it.targets=basalt}, against real HBase 2.6.4 with its AccessController: the answers must be
 * the same. Also prints what the checks cost (the same reads and writes with authorisation off and on).
 */
@Timeout(900)
class AuthorizationMatrixTest {
  @TempDir Path dir;

  private static Configuration client(String quorum, int port) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.setInt("hbase.zookeeper.property.clientPort", port);
    conf.setInt("hbase.client.retries.number", 5);
    conf.setInt("hbase.rpc.timeout", 30_000);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    return conf;
  }

  private StandaloneServer basalt(Path data, boolean authorization) throws Exception {
    StandaloneConfig c = StandaloneConfig.defaults(data).withPorts(0, 0, 0);
    return new StandaloneServer(new StandaloneConfig(c.settings()
        .with(SecurityKeys.AUTHORIZATION, Boolean.toString(authorization))
        .with(SecurityKeys.GROUP_OVERRIDES, PermissionMatrix.GROUPS)
        .with(SecurityKeys.AUDIT_FILE, data.resolve("audit.log").toString())));
  }

  private static Map<String, String> runMatrix(Configuration conf) throws Exception {
    try (Connection superuser = ConnectionFactory.createConnection(conf)) {
      PermissionMatrix.setUp(superuser, true);
      Thread.sleep(2_000); // HBase's region server learns grants from ZooKeeper a moment after the master wrote them
      return PermissionMatrix.run(conf, superuser);
    }
  }

  @Test
  void basaltAnswersThePermissionMatrixAsHBaseDoes() throws Exception {
    Map<String, String> basalt;
    Path data = dir.resolve("basalt");
    try (StandaloneServer server = basalt(data, true)) {
      basalt = runMatrix(client(server.zookeeperQuorum(), server.zookeeperPort()));
    }
    basalt.forEach((k, v) -> System.out.println("[matrix] basalt " + k + " -> " + v));
    // Fixed expectations, so the matrix means something without the HBase target too.
    assertThat(basalt).containsEntry("alice/get row", "ok 3 cells").containsEntry("alice/put f1", "denied")
        .containsEntry("walter/put f1", "ok").containsEntry("walter/get row", "denied")
        .containsEntry("fred/get f1+f2", "ok 2 cells").containsEntry("fred/get row", "ok 2 cells")
        .containsEntry("fred/put f2", "denied")
        .containsEntry("quinn/get f1", "ok 1 cells").containsEntry("quinn/get row", "ok 1 cells").containsEntry("quinn/get f1:q2", "denied")
        .containsEntry("carol/get row", "ok 3 cells").containsEntry("nobody/get f1", "denied")
        .containsEntry("gail/scan", "ok 9 cells").containsEntry("gail/put f1", "denied")
        .containsEntry("nick/create table in ns", "ok, owner may write: ok")
        .containsEntry("nadia/create namespace", "denied").containsEntry("tara/disable t2", "denied")
        .containsEntry("tara/snapshot t1", "ok, owner tara, clone elsewhere: denied, restore: ok, delete: ok")
        .containsEntry("alice/snapshot t1", "denied").containsEntry("tara/list snapshots", "ok []")
        .containsEntry("tara/delete another's snapshot", "denied").containsEntry("alice/capabilities", "ok true");
    // HBase applies a batch's Puts together, after checking them all: one refused, none written
    assertThat(basalt.get("fred/batch put f1+f2")).startsWith("denied").endsWith("f1 put landed: false");
    assertThat(Files.readString(data.resolve("audit.log")))
        .contains("Access denied for user nobody").contains("request: createTable");

    if (!Targets.enabled().contains(Targets.HBASE)) {
      return;
    }
    Map<String, String> hbase;
    try (HBaseTarget target = HBaseTarget.start(Map.of(
        "hbase.security.authorization", "true",
        "hbase.coprocessor.master.classes", "org.apache.hadoop.hbase.security.access.AccessController",
        "hbase.coprocessor.region.classes", "org.apache.hadoop.hbase.security.access.AccessController",
        "hbase.coprocessor.regionserver.classes", "org.apache.hadoop.hbase.security.access.AccessController",
        "hadoop.user.group.static.mapping.overrides", PermissionMatrix.GROUPS))) {
      hbase = runMatrix(target.clientConfiguration());
    }
    List<String> differences = PermissionMatrix.differences(basalt, hbase);
    differences.forEach(d -> System.out.println("[matrix] DIFFERENT " + d));
    System.out.printf("[matrix] %d answers compared, %d differ%n", basalt.size(), differences.size());
    assertThat(differences).isEmpty();
  }

  /** Reads and writes with authorisation off, then on (a user with a table grant): the cost of the checks. */
  @Test
  void costOfTheChecks() throws Exception {
    // alternating, so that warm-up and the shared machine's load fall on both sides
    for (int round = 1; round <= 2; round++) {
      double[] off = timed(dir.resolve("off" + round), false);
      double[] on = timed(dir.resolve("on" + round), true);
      System.out.printf("[acl-cost] round %d, per call, authorisation off vs on: put %.0f vs %.0f us, "
          + "get %.0f vs %.0f us%n", round, off[0], on[0], off[1], on[1]);
      assertThat(on[1]).isPositive();
    }
  }

  private double[] timed(Path data, boolean authorization) throws Exception {
    try (StandaloneServer server = basalt(data, authorization)) {
      Configuration conf = client(server.zookeeperQuorum(), server.zookeeperPort());
      try (Connection superuser = ConnectionFactory.createConnection(conf)) {
        PermissionMatrix.setUp(superuser, authorization);
      }
      try (Connection c = PermissionMatrix.connectAs(conf, "alice"); Connection w = PermissionMatrix.connectAs(conf,
          "walter"); Table reads = c.getTable(PermissionMatrix.T1); Table writes = w.getTable(PermissionMatrix.T1)) {
        int n = 3_000;
        for (int i = 0; i < 300; i++) { // warm-up
          writes.put(new Put(Bytes.toBytes("x" + i)).addColumn(PermissionMatrix.F1, PermissionMatrix.Q1, new byte[100]));
          reads.get(new Get(Bytes.toBytes("x" + i)));
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          writes.put(new Put(Bytes.toBytes("y" + i)).addColumn(PermissionMatrix.F1, PermissionMatrix.Q1, new byte[100]));
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          reads.get(new Get(Bytes.toBytes("y" + i)));
        }
        long t2 = System.nanoTime();
        return new double[] {(t1 - t0) / 1e3 / n, (t2 - t1) / 1e3 / n};
      }
    }
  }

  /** The AccessControlService coprocessor endpoint, as clients before 2.x's Admin calls used it. */
  @Test
  void theAccessControlEndpointServesOlderClients() throws Exception {
    try (StandaloneServer server = basalt(dir.resolve("endpoint"), true)) {
      Configuration conf = client(server.zookeeperQuorum(), server.zookeeperPort());
      try (Connection su = ConnectionFactory.createConnection(conf); Admin admin = su.getAdmin()) {
        PermissionMatrix.setUp(su, true);
        AccessControlService.BlockingInterface master = AccessControlService.newBlockingStub(admin.coprocessorService());
        AccessControlUtil.grant(null, master, "olduser", PermissionMatrix.T1, PermissionMatrix.F1, null, false,
            Permission.Action.READ);
        assertThat(AccessControlUtil.getUserPermissions(null, master, PermissionMatrix.T1))
            .extracting(UserPermission::getUser).contains("olduser");
        try (Connection old = PermissionMatrix.connectAs(conf, "olduser"); Table t = old.getTable(PermissionMatrix.T1)) {
          assertThat(t.get(new Get(Bytes.toBytes("r1")).addFamily(PermissionMatrix.F1)).size()).isEqualTo(2);
          AccessControlService.BlockingInterface region = AccessControlService.newBlockingStub(
              t.coprocessorService(Bytes.toBytes("r1")));
          region.checkPermissions(null, AccessControlProtos.CheckPermissionsRequest.newBuilder()
              .addPermission(AccessControlUtil.toPermission(Permission.newBuilder(PermissionMatrix.T1)
                  .withFamily(PermissionMatrix.F1).withActions(Permission.Action.READ).build())).build());
          assertThatThrownBy(() -> region.checkPermissions(null, AccessControlProtos.CheckPermissionsRequest.newBuilder()
              .addPermission(AccessControlUtil.toPermission(Permission.newBuilder(PermissionMatrix.T1)
                  .withFamily(PermissionMatrix.F1).withActions(Permission.Action.WRITE).build())).build()))
              .hasStackTraceContaining("AccessDeniedException");
          AccessControlProtos.TablePermission readF1 = AccessControlProtos.TablePermission.newBuilder()
              .setTableName(org.apache.hadoop.hbase.protobuf.ProtobufUtil.toProtoTableName(PermissionMatrix.T1))
              .setFamily(com.google.protobuf.ByteString.copyFrom(PermissionMatrix.F1))
              .addAction(AccessControlProtos.Permission.Action.READ).build();
          assertThat(region.hasPermission(null, AccessControlProtos.HasPermissionRequest.newBuilder()
              .setTablePermission(readF1).setUserName(com.google.protobuf.ByteString.copyFromUtf8("olduser")).build())
              .getHasPermission()).isTrue();
          assertThat(region.hasPermission(null, AccessControlProtos.HasPermissionRequest.newBuilder()
              .setTablePermission(readF1.toBuilder().setFamily(com.google.protobuf.ByteString.copyFrom(
                  PermissionMatrix.F2))).setUserName(com.google.protobuf.ByteString.copyFromUtf8("olduser")).build())
              .getHasPermission()).isFalse();
          // granting needs ADMIN, also through the endpoint
          AccessControlService.BlockingInterface oldMaster = AccessControlService.newBlockingStub(
              old.getAdmin().coprocessorService());
          assertThatThrownBy(() -> AccessControlUtil.grant(null, oldMaster, "olduser", PermissionMatrix.T1, null, null,
              false, Permission.Action.WRITE)).hasStackTraceContaining("AccessDeniedException");
        }
        AccessControlUtil.revoke(null, master, "olduser", PermissionMatrix.T1, PermissionMatrix.F1, null,
            Permission.Action.READ);
        assertThat(AccessControlUtil.getUserPermissions(null, master, PermissionMatrix.T1))
            .extracting(UserPermission::getUser).doesNotContain("olduser");
      }
    }
  }
}
