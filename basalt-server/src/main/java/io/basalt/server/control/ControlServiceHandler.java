package io.basalt.server.control;

import io.basalt.server.rpc.CallController;
import java.io.IOException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/** ClientService's {@code ExecRegionServerService}, carrying control calls to a {@link ControlEndpoint}. */
public final class ControlServiceHandler {
  private final ControlEndpoint endpoint;

  public ControlServiceHandler(ControlEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  public CoprocessorServiceResponse execRegionServerService(CallController c, CoprocessorServiceRequest request)
      throws IOException {
    String service = request.getCall().getServiceName();
    if (!ControlEndpoint.SERVICE.equals(service)) {
      throw new DoNotRetryIOException("coprocessor endpoint " + service + " is not supported by Basalt");
    }
    byte[] result = endpoint.call(request.getCall().getMethodName(), request.getCall().getRequest().toByteArray());
    return CoprocessorServiceResponse.newBuilder().setRegion(request.getRegion())
        .setValue(NameBytesPair.newBuilder().setName(service).setValue(ByteString.copyFrom(result))).build();
  }
}
