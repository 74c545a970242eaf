package io.basalt.server.control;

import io.basalt.server.rpc.RpcClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceCall;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/** Sends control calls to one server's {@link ControlEndpoint}. */
public final class ControlClient {
  private static final RegionSpecifier NO_REGION = RegionSpecifier.newBuilder()
      .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME).setValue(ByteString.EMPTY).build();

  private final RpcClient rpc;
  private final InetSocketAddress address;
  private final int timeoutMillis;

  public ControlClient(RpcClient rpc, InetSocketAddress address, int timeoutMillis) {
    this.rpc = rpc;
    this.address = address;
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
        .setCall(CoprocessorServiceCall.newBuilder().setRow(ByteString.copyFrom(HConstants.EMPTY_BYTE_ARRAY))
            .setServiceName(ControlEndpoint.SERVICE).setMethodName(method).setRequest(ByteString.copyFrom(payload)))
        .build();
    CoprocessorServiceResponse response = rpc.call(address, "ClientService", "ExecRegionServerService", request,
        CoprocessorServiceResponse.getDefaultInstance(), timeoutMillis);
    return response.getValue().getValue().toByteArray();
  }
}
