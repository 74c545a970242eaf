package io.basalt.server.control;

import io.basalt.server.rpc.CallController;
import java.io.IOException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * ClientService's {@code ExecRegionServerService}, carrying control calls to a {@link ControlEndpoint}. The
 * client port is shared with clients: only a connection that proved cluster membership (the member
 * handshake of {@code io.basalt.server.security}) may make them; anyone else gets AccessDeniedException.
 */
public final class ControlServiceHandler {
  private final ControlEndpoint endpoint;
  private final ServerName self;

  public ControlServiceHandler(ControlEndpoint endpoint, ServerName self) {
    this.endpoint = endpoint;
    this.self = self;
  }

  public CoprocessorServiceResponse execRegionServerService(CallController c, CoprocessorServiceRequest request)
      throws IOException {
    String service = request.getCall().getServiceName();
    if (ControlEndpoint.SERVICE.equals(service) && !c.caller().clusterMember()) {
      throw new AccessDeniedException("control calls are for this cluster's servers only; this connection did not "
          + "prove it holds the cluster secret");
    }
    if (!ControlEndpoint.SERVICE.equals(service)) {
      throw new DoNotRetryIOException("coprocessor endpoint " + service + " is not supported by Basalt");
    }
    String addressee = request.getCall().getRow().toStringUtf8();
    if (!addressee.equals(self.getServerName())) {
      throw new org.apache.hadoop.hbase.ipc.ServerNotRunningYetException("control call for " + addressee
          + " reached " + self + " (a restarted server at the same address)");
    }
    byte[] result = endpoint.call(request.getCall().getMethodName(), request.getCall().getRequest().toByteArray());
    return CoprocessorServiceResponse.newBuilder().setRegion(request.getRegion())
        .setValue(NameBytesPair.newBuilder().setName(service).setValue(ByteString.copyFrom(result))).build();
  }
}
