package io.basalt.server.acl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.ShadedAccessControlUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AccessControlProtos.UsersAndPermissions;

/**
 * One ACL entry's permissions (everything granted on one table, one namespace, or globally) as stored in its
 * znode: {@code "BACL" | version 1 | CRC32 of the payload | payload}, the payload being HBase's own
 * {@code UsersAndPermissions} message (what HBase mirrors into ZooKeeper from hbase:acl). A damaged record
 * is refused, never half read.
 */
final class PermissionCodec {
  private static final byte[] MAGIC = {'B', 'A', 'C', 'L'};
  private static final byte VERSION = 1;

  private PermissionCodec() {}

  static byte[] encode(Map<String, List<Permission>> byUser) {
    UsersAndPermissions.Builder b = UsersAndPermissions.newBuilder();
    for (Map.Entry<String, List<Permission>> e : byUser.entrySet()) {
      UsersAndPermissions.UserPermissions.Builder u = UsersAndPermissions.UserPermissions.newBuilder()
          .setUser(org.apache.hbase.thirdparty.com.google.protobuf.ByteString.copyFromUtf8(e.getKey()));
      for (Permission p : e.getValue()) {
        u.addPermissions(ShadedAccessControlUtil.toPermission(p));
      }
      b.addUserPermissions(u);
    }
    byte[] payload = b.build().toByteArray();
    CRC32 crc = new CRC32();
    crc.update(payload);
    return ByteBuffer.allocate(MAGIC.length + 1 + 8 + payload.length).put(MAGIC).put(VERSION)
        .putLong(crc.getValue()).put(payload).array();
  }

  static Map<String, List<Permission>> decode(byte[] data) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(data);
    byte[] magic = new byte[MAGIC.length];
    if (data.length < MAGIC.length + 9) {
      throw new IOException("ACL record of " + data.length + " bytes is too short");
    }
    in.get(magic);
    if (!java.util.Arrays.equals(magic, MAGIC)) {
      throw new IOException("not an ACL record");
    }
    byte version = in.get();
    if (version != VERSION) {
      throw new IOException("ACL record version " + version + " is unknown to this server");
    }
    long expected = in.getLong();
    byte[] payload = new byte[in.remaining()];
    in.get(payload);
    CRC32 crc = new CRC32();
    crc.update(payload);
    if (crc.getValue() != expected) {
      throw new IOException("ACL record fails its checksum");
    }
    Map<String, List<Permission>> out = new LinkedHashMap<>();
    for (UsersAndPermissions.UserPermissions u : UsersAndPermissions.parseFrom(payload).getUserPermissionsList()) {
      List<Permission> perms = out.computeIfAbsent(u.getUser().toStringUtf8(), k -> new ArrayList<>());
      for (var p : u.getPermissionsList()) {
        perms.add(ShadedAccessControlUtil.toPermission(p));
      }
    }
    return out;
  }
}
