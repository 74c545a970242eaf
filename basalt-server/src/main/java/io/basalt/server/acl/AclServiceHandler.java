package io.basalt.server.acl;

import io.basalt.server.rpc.CallController;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.exceptions.UnknownProtocolException;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.ShadedAccessControlUtil;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AccessControlProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceCall;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * HBase's permission calls on the wire: MasterService Grant, Revoke, GetUserPermissions and HasUserPermissions
 * (what the 2.x client's Admin and AccessControlClient use), and the AccessControlService coprocessor endpoint
 * (Grant, Revoke, GetUserPermissions, CheckPermissions, HasPermission) that older clients reach through
 * ExecMasterService on the master and ExecService on a region server. With authorisation off every one is
 * refused as HBase refuses it without its AccessController.
 */
public final class AclServiceHandler implements io.basalt.server.rpc.CoprocessorEndpoints.Endpoint {
  private final Grants grants;
  private final AccessChecker checker;

  /** {@code grants} and {@code checker} null: authorisation is off. */
  public AclServiceHandler(Grants grants, AccessChecker checker) {
    this.grants = grants;
    this.checker = checker;
  }

  private RequestUser caller(CallController c) throws IOException {
    if (grants == null) {
      throw new DoNotRetryIOException(new UnsupportedOperationException(
          "org.apache.hadoop.hbase.security.access.AccessController is not loaded"));
    }
    return checker.user(c.caller());
  }

  public AccessControlProtos.GrantResponse grant(CallController c, AccessControlProtos.GrantRequest r)
      throws IOException {
    RequestUser u = caller(c);
    grants.grant(u, ShadedAccessControlUtil.toUserPermission(r.getUserPermission()), r.getMergeExistingPermissions());
    return AccessControlProtos.GrantResponse.getDefaultInstance();
  }

  public AccessControlProtos.RevokeResponse revoke(CallController c, AccessControlProtos.RevokeRequest r)
      throws IOException {
    RequestUser u = caller(c);
    grants.revoke(u, ShadedAccessControlUtil.toUserPermission(r.getUserPermission()));
    return AccessControlProtos.RevokeResponse.getDefaultInstance();
  }

  public AccessControlProtos.GetUserPermissionsResponse getUserPermissions(CallController c,
      AccessControlProtos.GetUserPermissionsRequest r) throws IOException {
    RequestUser u = caller(c);
    AccessControlProtos.Permission.Type type = r.hasType() ? r.getType() : AccessControlProtos.Permission.Type.Global;
    String user = r.hasUserName() ? r.getUserName().toStringUtf8() : null;
    TableName table = type == AccessControlProtos.Permission.Type.Table && r.hasTableName()
        ? ProtobufUtil.toTableName(r.getTableName()) : null;
    String namespace = type == AccessControlProtos.Permission.Type.Namespace && r.hasNamespaceName()
        ? r.getNamespaceName().toStringUtf8() : null;
    if (type == AccessControlProtos.Permission.Type.Table && table == null) {
      throw new DoNotRetryIOException("GetUserPermissions of type Table needs a table name");
    }
    List<UserPermission> perms = grants.list(u, user, namespace, table,
        r.hasColumnFamily() ? r.getColumnFamily().toByteArray() : null,
        r.hasColumnQualifier() ? r.getColumnQualifier().toByteArray() : null);
    return ShadedAccessControlUtil.buildGetUserPermissionsResponse(perms);
  }

  public AccessControlProtos.HasUserPermissionsResponse hasUserPermissions(CallController c,
      AccessControlProtos.HasUserPermissionsRequest r) throws IOException {
    RequestUser u = caller(c);
    List<Permission> perms = new ArrayList<>();
    r.getPermissionList().forEach(p -> perms.add(ShadedAccessControlUtil.toPermission(p)));
    List<Boolean> answers = grants.has(u, r.hasUserName() ? r.getUserName().toStringUtf8() : null, perms);
    return AccessControlProtos.HasUserPermissionsResponse.newBuilder().addAllHasUserPermission(answers).build();
  }

  // ---------------------------------------------------------------- the coprocessor endpoint

  /** MasterService.ExecMasterService: the master's coprocessor endpoints (here only AccessControlService). */
  public CoprocessorServiceResponse execMasterService(CallController c, CoprocessorServiceRequest r)
      throws IOException {
    return endpoint(c, r);
  }

  @Override
  public boolean serves(String service) {
    return service.equals("AccessControlService") || service.endsWith(".AccessControlService");
  }

  /** ClientService.ExecService of AccessControlService, as a region's endpoint. */
  @Override
  public CoprocessorServiceResponse call(CallController c, CoprocessorServiceRequest r) throws IOException {
    return endpoint(c, r);
  }

  private CoprocessorServiceResponse endpoint(CallController c, CoprocessorServiceRequest r) throws IOException {
    CoprocessorServiceCall call = r.getCall();
    String service = call.getServiceName();
    if (!serves(service) || grants == null) {
      throw new UnknownProtocolException("No registered coprocessor service found for " + service);
    }
    ByteString in = call.getRequest();
    Message out = switch (call.getMethodName()) {
      case "Grant" -> grant(c, AccessControlProtos.GrantRequest.parseFrom(in));
      case "Revoke" -> revoke(c, AccessControlProtos.RevokeRequest.parseFrom(in));
      case "GetUserPermissions" -> getUserPermissions(c, AccessControlProtos.GetUserPermissionsRequest.parseFrom(in));
      case "CheckPermissions" -> {
        List<Permission> perms = new ArrayList<>();
        AccessControlProtos.CheckPermissionsRequest.parseFrom(in).getPermissionList()
            .forEach(p -> perms.add(ShadedAccessControlUtil.toPermission(p)));
        grants.check(caller(c), perms);
        yield AccessControlProtos.CheckPermissionsResponse.getDefaultInstance();
      }
      case "HasPermission" -> null;
      default -> throw new UnknownProtocolException("AccessControlService has no method " + call.getMethodName());
    };
    ByteString value = out != null ? out.toByteString() : hasPermission(c, in);
    return CoprocessorServiceResponse.newBuilder().setRegion(r.getRegion())
        .setValue(NameBytesPair.newBuilder().setName(call.getMethodName() + "Response").setValue(value)).build();
  }

  /**
   * HasPermission (only in the unshaded AccessControl.proto): request {@code 1: TablePermission, 2: user name},
   * response {@code 1: bool}; read and written field by field.
   */
  private ByteString hasPermission(CallController c, ByteString request) throws IOException {
    RequestUser u = caller(c);
    CodedInputStream in = request.newCodedInput();
    AccessControlProtos.TablePermission table = null;
    String user = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag) {
        case (1 << 3) | 2 -> table = AccessControlProtos.TablePermission.parseFrom(in.readBytes());
        case (2 << 3) | 2 -> user = in.readBytes().toStringUtf8();
        default -> in.skipField(tag);
      }
    }
    if (table == null) {
      throw new DoNotRetryIOException("HasPermission needs a table permission");
    }
    Permission p = ShadedAccessControlUtil.toPermission(AccessControlProtos.Permission.newBuilder()
        .setType(AccessControlProtos.Permission.Type.Table).setTablePermission(table).build());
    boolean has = grants.has(u, user, List.of(p)).get(0);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeBool(1, has);
    out.flush();
    return ByteString.copyFrom(bytes.toByteArray());
  }
}
