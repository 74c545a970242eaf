package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.cluster.LocalCluster;
import io.basalt.server.control.ControlCodec;
import io.basalt.server.control.ControlEndpoint;
import io.basalt.server.rpc.RemoteException;
import io.basalt.server.rpc.RpcClient;
import io.basalt.server.security.ClusterSecret;
import io.basalt.server.security.MemberConnector;
import io.basalt.server.security.TlsOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ClusterConnection;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceCall;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.ServiceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The master's control calls, carried on the region server's client port, are refused to anyone who has
 * not proven the cluster secret: the unmodified HBase client and a raw RPC connection get
 * AccessDeniedException for openRegion, closeRegion and dropRegion (well-formed calls that would act), and the
 * region keeps serving. The cluster's own servers (the secret file their launcher was given) still can.
 */
@Timeout(180)
class InternalCallsTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;

  @Test
  void clientsCannotMakeControlCallsMembersCan() throws Exception {
    try (LocalCluster cluster = new LocalCluster(dir, 1, 1);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      TableName name = TableName.valueOf("guarded");
      admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
          .build());
      try (Table t = conn.getTable(name)) {
        t.put(new Put(Bytes.toBytes("row")).addColumn(F, Q, Bytes.toBytes("kept")));
      }
      RegionInfo region = admin.getRegions(name).get(0);
      ServerName server = conn.getRegionLocator(name).getRegionLocation(Bytes.toBytes("row")).getServerName();
      InetSocketAddress address = new InetSocketAddress(server.getHostname(), server.getPort());
      byte[] regionOnly = new ControlCodec.Writer().region(region).toBytes();
      byte[] regionAndTable = new ControlCodec.Writer().region(region).table(admin.getDescriptor(name)).toBytes();

      // The unmodified HBase client's own stub of the region server.
      ClientService.BlockingInterface stub = ((ClusterConnection) conn).getClient(server);
      for (String method : List.of("dropRegion", "closeRegion")) {
        assertThatThrownBy(() -> call(stub, server, method, regionOnly)).as(method)
            .isInstanceOf(AccessDeniedException.class).hasMessageContaining("cluster's servers only");
      }
      assertThatThrownBy(() -> call(stub, server, "openRegion", regionAndTable))
          .isInstanceOf(AccessDeniedException.class);

      // A raw HBase-protocol connection, no membership proof.
      try (RpcClient raw = new RpcClient("intruder", 5_000)) {
        assertThatThrownBy(() -> raw.call(address, "ClientService", "ExecRegionServerService",
            request(server, "dropRegion", regionOnly), CoprocessorServiceResponse.getDefaultInstance(), 10_000))
            .isInstanceOfSatisfying(RemoteException.class, e -> {
              assertThat(e.is(AccessDeniedException.class)).as(e.getMessage()).isTrue();
              assertThat(e.unwrap()).isInstanceOf(AccessDeniedException.class);
            });
      }

      // Another cluster's secret: the handshake fails before any call is sent.
      Path other = dir.resolve("other.secret");
      Files.writeString(other, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n");
      Files.setPosixFilePermissions(other, PosixFilePermissions.fromString("rw-------"));
      try (RpcClient stranger = new RpcClient("stranger", 5_000,
          new MemberConnector(ClusterSecret.loadOrCreate(other), null, TlsOptions.DEFAULT))) {
        assertThatThrownBy(() -> stranger.call(address, "ClientService", "ExecRegionServerService",
            request(server, "dropRegion", regionOnly), CoprocessorServiceResponse.getDefaultInstance(), 10_000))
            .isInstanceOf(IOException.class).hasMessageContaining("does not hold this cluster's secret");
      }

      try (Table t = conn.getTable(name)) {
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("row"))).getValue(F, Q))).as("the region still serves")
            .isEqualTo("kept");
      }

      // The cluster's secret (the file the launcher created) makes a member: a harmless call succeeds.
      try (RpcClient member = new RpcClient("member", 5_000,
          new MemberConnector(ClusterSecret.loadOrCreate(cluster.secretFile()), null, TlsOptions.DEFAULT))) {
        CoprocessorServiceResponse r = member.call(address, "ClientService", "ExecRegionServerService",
            request(server, "onlineRegions", new byte[0]), CoprocessorServiceResponse.getDefaultInstance(), 10_000);
        List<RegionInfo> online = new ControlCodec.Reader(r.getValue().getValue().toByteArray()).regions();
        assertThat(online).extracting(RegionInfo::getEncodedName).contains(region.getEncodedName());
      }
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cluster.secretFile())))
          .isEqualTo("rw-------");
    }
  }

  private static CoprocessorServiceRequest request(ServerName server, String method, byte[] payload) {
    return CoprocessorServiceRequest.newBuilder()
        .setRegion(RegionSpecifier.newBuilder().setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
            .setValue(ByteString.EMPTY))
        .setCall(CoprocessorServiceCall.newBuilder().setRow(ByteString.copyFromUtf8(server.getServerName()))
            .setServiceName(ControlEndpoint.SERVICE).setMethodName(method).setRequest(ByteString.copyFrom(payload)))
        .build();
  }

  /** A control call through the HBase client's stub; its failure as the client would see it. */
  private static void call(ClientService.BlockingInterface stub, ServerName server, String method, byte[] payload)
      throws IOException {
    try {
      stub.execRegionServerService(null, request(server, method, payload));
    } catch (ServiceException e) {
      throw ProtobufUtil.handleRemoteException(e);
    }
  }
}
