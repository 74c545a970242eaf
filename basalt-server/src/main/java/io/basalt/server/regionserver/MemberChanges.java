package io.basalt.server.regionserver;

import io.basalt.server.catalog.Member;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import java.io.IOException;
import java.time.Duration;
import org.apache.hadoop.hbase.HBaseIOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * The region server's part in changing a replica group: handing the primary role over, waiting until a
 * member that joined holds the data, and deleting a member from the group. JE's group requests go from
 * member to member (server to server), so the master asks a server with a live member to make them.
 */
final class MemberChanges {
  /**
   * How long a primary waits for the member it hands its role to (JE's master transfer). Once the target has caught
   * up, JE holds the primary's commits until the target confirms the log's end; a target that dies in that moment
   * holds writes for this long, so it is short: a target that lags more is refused and asked again later.
   */
  private static final Duration PRIMARY_TRANSFER_TIMEOUT = Duration.ofSeconds(3);
  /** How long a joined member may take to catch up with its primary (a whole region streamed). */
  private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(10);

  private MemberChanges() {}

  /** {@code r}: this server's member of {@code region}, or null if none is open here. */
  static void transferPrimary(ServerName self, RegionInfo region, HostedRegion r, ServerName target)
      throws IOException {
    ReplicatedRegion member = member(self, region, r);
    if (member.role() != ReplicaRole.PRIMARY) {
      throw new HBaseIOException("the primary of " + region.getRegionNameAsString() + " is not on " + self);
    }
    try {
      member.transferPrimary(Member.nodeName(target), PRIMARY_TRANSFER_TIMEOUT);
    } catch (RuntimeException e) {
      throw new HBaseIOException("handing the primary of " + region.getRegionNameAsString() + " to " + target
          + " failed: " + e.getMessage(), e);
    }
  }

  static void awaitCaughtUp(ServerName self, RegionInfo region, HostedRegion r) throws IOException {
    try {
      member(self, region, r).awaitCaughtUp(CATCH_UP_TIMEOUT);
    } catch (RuntimeException e) {
      throw new HBaseIOException("the member of " + region.getRegionNameAsString() + " on " + self
          + " has not caught up with its primary: " + e.getMessage(), e);
    }
  }

  static void delete(ServerName self, RegionInfo region, HostedRegion r, Member gone) throws IOException {
    if (gone.isOn(self)) {
      throw new HBaseIOException("the member of " + region.getRegionNameAsString() + " on " + self
          + " cannot delete itself from its group");
    }
    try {
      member(self, region, r).deleteMember(gone.nodeName());
    } catch (RuntimeException e) {
      throw new HBaseIOException("deleting the member on " + gone.server() + " from the group of "
          + region.getRegionNameAsString() + " failed: " + e.getMessage(), e);
    }
  }

  private static ReplicatedRegion member(ServerName self, RegionInfo region, HostedRegion r) throws IOException {
    if (r == null || !(r.store() instanceof ReplicatedRegion member)) {
      throw new HBaseIOException("no member of " + region.getRegionNameAsString() + " runs on " + self);
    }
    return member;
  }
}
