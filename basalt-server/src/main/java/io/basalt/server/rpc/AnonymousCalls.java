package io.basalt.server.rpc;

import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * What an anonymous caller (authentication required, nothing proven, let in by
 * hbase.ipc.server.fallback-to-simple-auth-allowed) may do: find the cluster (ClientMetaService) and ask
 * WhoAmI. Everything else is refused here, before any handler runs, whatever ACLs say.
 */
final class AnonymousCalls {
  private AnonymousCalls() {}

  static void check(Caller caller, String service, String method, Message param) throws AccessDeniedException {
    if (caller.authMethod() != Caller.AuthMethod.ANONYMOUS || service.equals("ClientMetaService")) {
      return;
    }
    if (param instanceof CoprocessorServiceRequest r && method.equals("ExecService")
        && r.getCall().getServiceName().endsWith("AuthenticationService") && r.getCall().getMethodName().equals("WhoAmI")) {
      return;
    }
    throw new AccessDeniedException("anonymous caller (not authenticated) has no rights: " + service + "." + method
        + " refused; authenticate with Kerberos or a token");
  }
}
