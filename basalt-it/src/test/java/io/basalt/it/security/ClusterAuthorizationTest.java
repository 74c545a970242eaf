package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.TimingSensitive;
import io.basalt.it.cluster.LocalCluster;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authorisation in a cluster of separate processes (settings passed by the launchers): a grant or revoke made
 * through the master is in force on the region server's process within a second.
 */
@Timeout(300)
@TimingSensitive
class ClusterAuthorizationTest {
  @TempDir Path dir;

  private static String read(Table t) {
    return PermissionMatrix.outcome(() -> "ok " + t.get(new Get(Bytes.toBytes("r1"))).size());
  }

  /** Milliseconds until a read answers {@code wanted}, polling; -1 if not within the bound. */
  private static long until(Table t, String wanted, long boundMillis) throws InterruptedException {
    long t0 = System.nanoTime();
    while (System.nanoTime() - t0 < boundMillis * 1_000_000L) {
      if (read(t).equals(wanted)) {
        return (System.nanoTime() - t0) / 1_000_000L;
      }
      Thread.sleep(5);
    }
    return -1;
  }

  @Test
  void grantsAndRevokesReachTheRegionServerWithinASecond() throws Exception {
    List<String> args = List.of("--hbase.security.authorization", "true");
    try (LocalCluster cluster = new LocalCluster(dir, 1, 1, args, List.of("--replication-factor", "1",
        "--hbase.security.authorization", "true"))) {
      Configuration conf = cluster.clientConfiguration();
      try (Connection su = ConnectionFactory.createConnection(conf); Admin admin = su.getAdmin();
          Connection alice = PermissionMatrix.connectAs(conf, "alice")) {
        admin.createTable(TableDescriptorBuilder.newBuilder(PermissionMatrix.T1)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(PermissionMatrix.F1)).build());
        try (Table t = su.getTable(PermissionMatrix.T1)) {
          t.put(new Put(Bytes.toBytes("r1")).addColumn(PermissionMatrix.F1, PermissionMatrix.Q1, Bytes.toBytes("v")));
        }
        assertThat(admin.getSecurityCapabilities()).contains(
            org.apache.hadoop.hbase.client.security.SecurityCapability.AUTHORIZATION);
        try (Table t = alice.getTable(PermissionMatrix.T1)) {
          assertThat(read(t)).isEqualTo("denied");
          UserPermission p = new UserPermission("alice", Permission.newBuilder(PermissionMatrix.T1)
              .withActions(Permission.Action.READ).build());
          admin.grant(p, false);
          long granted = until(t, "ok 1", 1_000);
          admin.revoke(p);
          long revoked = until(t, "denied", 1_000);
          System.out.printf("[acl-propagation] grant in force on the region server after %d ms, revoke after %d ms%n",
              granted, revoked);
          assertThat(granted).as("grant seen within a second").isBetween(0L, 1_000L);
          assertThat(revoked).as("revoke seen within a second").isBetween(0L, 1_000L);
        }
      }
    }
  }
}
