package io.basalt.server.regionserver;

import io.basalt.server.catalog.Member;
import io.basalt.server.convert.Schemas;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a server's member of a replicated region in one of three ways: with its data here it rejoins its
 * group; a new region's first member founds the group; any other member without data joins empty and is
 * filled from the others before it serves. A region with no other member and no data here is refused, so
 * it never comes back empty.
 */
final class MemberOpener {
  private static final Logger LOG = LoggerFactory.getLogger(MemberOpener.class);

  private MemberOpener() {}

  /**
   * {@code self} is this server's entry in {@code members}; {@code host} its replication address; {@code
   * group} its JE group's name.
   */
  static ReplicatedRegion open(StorageEngine engine, Path dir, RegionInfo info, TableDescriptor table, String group,
      List<Member> members, Member self, String host, boolean create, RoleListener onRole) throws IOException {
    GroupMembership membership = membership(group, members, self, host);
    try {
      if (Files.isDirectory(dir)) {
        // Its own range: a split daughter's member serves its half at once, before its log says so.
        return engine.openMember(dir, membership, onRole, Schemas.descriptor(table, info).range());
      }
      if (create && members.get(0) == self) {
        return engine.createGroup(dir, Schemas.descriptor(table, info), membership, onRole);
      }
      if (members.size() > 1) {
        LOG.info("{}: joining its replica group with no data here, to be filled from {}",
            info.getRegionNameAsString(), membership.helpers());
        return engine.joinGroup(dir, membership, onRole);
      }
    } catch (RuntimeException e) {
      throw new IOException("cannot open the member of " + info.getRegionNameAsString() + " on " + self.server()
          + ": " + e.getMessage(), e);
    }
    throw new IOException(info.getRegionNameAsString() + " has no data on " + self.server() + " (" + dir
        + " is missing) and no other member to copy it from: not served, so that it does not come back empty");
  }

  /** How {@code self} finds the rest of its group: the other members at their replication ports. */
  static GroupMembership membership(String group, List<Member> members, Member self, String host) {
    return new GroupMembership(group, self.nodeName(), host, self.port(),
        members.stream().filter(m -> m != self).map(m -> m.server().getHostname() + ":" + m.port()).toList());
  }
}
