package io.basalt.bench.compare.security;

import io.basalt.bench.compare.launch.ChildJvm;
import io.basalt.bench.compare.launch.Target;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A server started with {@link SecurityMode}'s settings (its client configuration already has TLS), as the
 * workloads see it: connections made as {@link SecurityMode#USER}. Before it is used, the superuser (the user running the bench and the servers)
 * grants that user CREATE, READ and WRITE on the default namespace, so the bench's tables are created by it (and
 * owned, as HBase's AccessController makes a creator the owner) and every call is checked against a grant.
 */
public final class SecuredTarget implements Target {
  private static final byte[] PROBE_FAMILY = Bytes.toBytes("f");
  private final Target launched;
  private final User user = User.create(UserGroupInformation.createRemoteUser(SecurityMode.USER));

  private SecuredTarget(Target launched) {
    this.launched = launched;
  }

  /** Grants the bench user its rights and waits (bounded) until a region server enforces them; closes on failure. */
  public static SecuredTarget of(Target launched) throws IOException, InterruptedException {
    SecuredTarget t = new SecuredTarget(launched);
    try {
      t.grantAndAwait();
      return t;
    } catch (IOException | InterruptedException | RuntimeException e) {
      launched.close();
      throw e;
    }
  }

  private void grantAndAwait() throws IOException, InterruptedException {
    TableName probe = TableName.valueOf("bench_security_probe");
    try (Connection superuser = ConnectionFactory.createConnection(clientConfiguration());
        Admin admin = superuser.getAdmin()) {
      admin.grant(new UserPermission(SecurityMode.USER, Permission.newBuilder("default")
          .withActions(Permission.Action.CREATE, Permission.Action.READ, Permission.Action.WRITE).build()), false);
      if (!admin.tableExists(probe)) {
        admin.createTable(TableDescriptorBuilder.newBuilder(probe)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(PROBE_FAMILY)).build());
      }
      // HBase's region servers learn grants through ZooKeeper a moment after the master stored them
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      try (Connection asUser = connect(); Table t = asUser.getTable(probe)) {
        while (true) {
          try {
            t.put(new Put(Bytes.toBytes("r")).addColumn(PROBE_FAMILY, PROBE_FAMILY, Bytes.toBytes("v")));
            break;
          } catch (IOException refused) {
            if (System.nanoTime() > deadline) {
              throw new IOException(name() + ": the grant to " + SecurityMode.USER + " was not in force after 60 s",
                  refused);
            }
            Thread.sleep(200);
          }
        }
      }
      admin.disableTable(probe);
      admin.deleteTable(probe);
    }
  }

  @Override
  public String name() {
    return launched.name();
  }

  @Override
  public Configuration clientConfiguration() {
    return launched.clientConfiguration();
  }

  @Override
  public Connection connect() throws IOException {
    return ConnectionFactory.createConnection(clientConfiguration(), user);
  }

  @Override
  public List<ChildJvm> processes() {
    return launched.processes();
  }

  @Override
  public Optional<Duration> coldStart() {
    return launched.coldStart();
  }

  @Override
  public void close() {
    launched.close();
  }

  @Override
  public String toString() {
    return launched + " with TLS and ACLs";
  }
}
