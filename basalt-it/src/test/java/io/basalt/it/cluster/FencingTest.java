package io.basalt.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.rpc.RemoteException;
import io.basalt.server.rpc.RpcClient;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.shaded.protobuf.RequestConverter;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region server paused (SIGSTOP) past its ZooKeeper session timeout, as a long GC pause would, must not
 * serve anything when it wakes (SIGCONT) until the master has given its regions back: a write sent to it
 * right away is refused (NotServingRegionException), later ones succeed once it serves again, and no
 * acknowledged write of the client load is lost.
 */
@Timeout(240)
class FencingTest {
  @TempDir Path dir;

  @Test
  void aPausedServerRefusesWritesWhenItWakesUntilTheMasterReassigns() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 1);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin();
         RpcClient rpc = new RpcClient("fencing-test", 5_000)) {
      TableName name = TableName.valueOf("fenced");
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.F)).build());
      RegionInfo region = admin.getRegions(name).get(0);
      LocalCluster.Node server = cluster.regionServers().get(0);
      InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());

      try (Workload load = new Workload(conn, name, 2, 50).start()) {
        load.awaitWrites(500, 60_000);
        assertThat(write(rpc, address, region, "before")).isNotNull();

        cluster.signal(server, "STOP");
        Thread.sleep(LocalCluster.SESSION_TIMEOUT_MILLIS * 2L);
        cluster.signal(server, "CONT");
        assertThatThrownBy(() -> write(rpc, address, region, "right-after-wake"))
            .isInstanceOfSatisfying(RemoteException.class,
                e -> assertThat(e.is(NotServingRegionException.class)).as(e.getMessage()).isTrue());

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
          try {
            write(rpc, address, region, "after-reassignment");
            break;
          } catch (RemoteException e) {
            assertThat(e.is(NotServingRegionException.class)).as(e.getMessage()).isTrue();
            assertThat(System.nanoTime()).as("served again after the master gave the region back").isLessThan(deadline);
            Thread.sleep(100);
          }
        }
        load.awaitWrites(500, 60_000);
        load.close();
        assertThat(load.verify()).isEmpty();
        assertThat(load.wrongReads()).isZero();
      }
      assertThat(cluster.logTail(server)).contains("fencing this server");
    }
  }

  /** One Put sent straight to the server, bypassing the client's retries. */
  private static MutateResponse write(RpcClient rpc, InetSocketAddress address, RegionInfo region, String row)
      throws Exception {
    MutateRequest request = RequestConverter.buildMutateRequest(region.getRegionName(),
        new Put(Bytes.toBytes(row)).addColumn(Workload.F, Workload.Q, Bytes.toBytes(row)));
    return rpc.call(address, "ClientService", "Mutate", request, MutateResponse.getDefaultInstance(), 5_000);
  }
}
