package io.basalt.server.rpc;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.exceptions.UnknownProtocolException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;

/**
 * ClientService.ExecService for the endpoints Basalt builds in where HBase loads coprocessors (authentication
 * tokens, access control): each call goes to the endpoint that serves the service it names.
 */
public final class CoprocessorEndpoints {
  /** One built-in endpoint. */
  public interface Endpoint {
    boolean serves(String serviceName);

    CoprocessorServiceResponse call(CallController c, CoprocessorServiceRequest request) throws IOException;
  }

  private final List<Endpoint> endpoints;

  public CoprocessorEndpoints(Endpoint... endpoints) {
    this.endpoints = List.of(endpoints);
  }

  public CoprocessorServiceResponse execService(CallController c, CoprocessorServiceRequest request)
      throws IOException {
    String service = request.getCall().getServiceName();
    for (Endpoint e : endpoints) {
      if (e.serves(service)) {
        return e.call(c, request);
      }
    }
    throw new UnknownProtocolException("No registered coprocessor service found for " + service
        + " (Basalt runs no coprocessors; only its built-in endpoints answer)");
  }
}
