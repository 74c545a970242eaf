package io.basalt.server.auth;

import io.basalt.server.rpc.CallController;
import io.basalt.server.rpc.Caller;
import io.basalt.server.security.Authentication;
import io.basalt.server.security.TokenAuthority;
import java.io.IOException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.exceptions.UnknownProtocolException;
import org.apache.hadoop.hbase.protobuf.generated.AuthenticationProtos;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * HBase's {@code AuthenticationService} (the TokenProvider coprocessor endpoint), reached as HBase's client
 * reaches it: {@code ClientService.ExecService} on a region, usually hbase:meta's ({@code
 * TokenUtil.obtainToken(conn)}). GetAuthenticationToken issues a token to a Kerberos- or
 * certificate-authenticated caller (never to one that itself came with a token, as HBase); WhoAmI tells the
 * caller who the server thinks it is. Without authentication the endpoint does not exist, as in HBase.
 */
public final class AuthenticationServiceHandler implements io.basalt.server.rpc.CoprocessorEndpoints.Endpoint {
  private static final String SERVICE = "AuthenticationService";
  private static final String FULL_NAME = "hbase.pb." + SERVICE;

  private final Authentication auth;

  public AuthenticationServiceHandler(Authentication auth) {
    this.auth = auth;
  }

  @Override
  public boolean serves(String service) {
    return service.equals(FULL_NAME) || service.equals(SERVICE);
  }

  @Override
  public CoprocessorServiceResponse call(CallController c, CoprocessorServiceRequest request) throws IOException {
    String service = request.getCall().getServiceName();
    if (!auth.required()) {
      throw new UnknownProtocolException("No registered coprocessor service found for " + service
          + ": hbase.security.authentication is not kerberos on this cluster");
    }
    byte[] result = switch (request.getCall().getMethodName()) {
      case "GetAuthenticationToken" -> token(c.caller()).toByteArray();
      case "WhoAmI" -> AuthenticationProtos.WhoAmIResponse.newBuilder().setUsername(c.caller().user())
          .setAuthMethod(c.caller().authMethod().name()).build().toByteArray();
      default -> throw new DoNotRetryIOException("unknown method " + request.getCall().getMethodName() + " of " + FULL_NAME);
    };
    return CoprocessorServiceResponse.newBuilder().setRegion(request.getRegion())
        .setValue(NameBytesPair.newBuilder().setName(FULL_NAME).setValue(ByteString.copyFrom(result))).build();
  }

  private AuthenticationProtos.GetAuthenticationTokenResponse token(Caller caller) throws IOException {
    TokenAuthority tokens = auth.tokens();
    if (tokens == null) {
      throw new org.apache.hadoop.hbase.ipc.ServerNotRunningYetException("token signing keys are not loaded yet");
    }
    if (caller.authMethod() != Caller.AuthMethod.KERBEROS && caller.authMethod() != Caller.AuthMethod.CERTIFICATE) {
      throw new AccessDeniedException("Token generation only allowed for Kerberos authenticated clients");
    }
    TokenAuthority.Token t = tokens.issue(caller.user());
    return AuthenticationProtos.GetAuthenticationTokenResponse.newBuilder()
        .setToken(AuthenticationProtos.Token.newBuilder()
            .setIdentifier(com.google.protobuf.ByteString.copyFrom(t.identifier()))
            .setPassword(com.google.protobuf.ByteString.copyFrom(t.password()))
            .setService(com.google.protobuf.ByteString.copyFromUtf8(t.service())))
        .build();
  }
}
