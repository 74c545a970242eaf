package io.basalt.server.control;

import io.basalt.server.rpc.RemoteException;
import io.basalt.server.rpc.RpcClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceCall;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * Sends control calls to one server's {@link ControlEndpoint}. The call's row field carries the server
 * name it is meant for, so a call never lands on another incarnation of the server at the same address.
 */
public final class ControlClient {
  private static final RegionSpecifier NO_REGION = RegionSpecifier.newBuilder()
      .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME).setValue(ByteString.EMPTY).build();

  private final RpcClient rpc;
  private final ServerName server;
  private final InetSocketAddress address;
  private final int timeoutMillis;

  /** Calls go to {@code server} only: a restarted process on the same port (new start code) refuses them. */
  public ControlClient(RpcClient rpc, ServerName server, int timeoutMillis) {
    this.rpc = rpc;
    this.server = server;
    this.address = new InetSocketAddress(server.getHostname(), server.getPort());
    this.timeoutMillis = timeoutMillis;
  }

  public InetSocketAddress address() {
    return address;
  }

  public byte[] call(String method, byte[] payload) throws IOException {
    return call(method, payload, timeoutMillis);
  }

  public byte[] call(String method, byte[] payload, int timeoutMillis) throws IOException {
    CoprocessorServiceRequest request = CoprocessorServiceRequest.newBuilder().setRegion(NO_REGION)
        .setCall(CoprocessorServiceCall.newBuilder().setRow(ByteString.copyFromUtf8(server.getServerName()))
            .setServiceName(ControlEndpoint.SERVICE).setMethodName(method).setRequest(ByteString.copyFrom(payload)))
        .build();
    try {
      CoprocessorServiceResponse response = rpc.call(address, "ClientService", "ExecRegionServerService", request,
          CoprocessorServiceResponse.getDefaultInstance(), timeoutMillis);
      return response.getValue().getValue().toByteArray();
    } catch (RemoteException e) {
      throw e.unwrap(); // what the master passes on to a client must be a class the client can rebuild
    }
  }
}
