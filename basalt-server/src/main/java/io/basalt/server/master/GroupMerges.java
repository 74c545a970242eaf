package io.basalt.server.master;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.master.protocol.GroupMergeProtocol;
import io.basalt.server.master.protocol.GroupMergeTxn.Side;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseIOException;
import org.apache.hadoop.hbase.ServerName;

/**
 * Starts the merge of two adjacent replicated regions ({@link GroupMergeProtocol}): every member of both must be up
 * (a retriable error naming the one that is not, as for a split), some server must hold a member of each (the copy
 * is local there: the master moves a member first when none does, {@link #colocatingMove}), and the larger region,
 * by its log on that server's disk, is the base whose logs are kept.
 */
final class GroupMerges {
  private final ServerManager servers;
  private final ReplicatedRegions replicated;

  GroupMerges(ServerManager servers, ReplicatedRegions replicated) {
    this.servers = servers;
    this.replicated = replicated;
  }

  GroupMergeProtocol begin(RegionRecord lower, RegionRecord upper, long mergedRegionId) throws IOException {
    if (!lower.replicated() || !upper.replicated()) {
      throw new DoNotRetryIOException("cannot merge " + lower.info().getRegionNameAsString() + " and "
          + upper.info().getRegionNameAsString() + ": one is replicated and the other is not");
    }
    Side low = side(lower);
    Side up = side(upper);
    Optional<ServerName> together = GroupMergeProtocol.founderServer(low, up);
    if (together.isEmpty()) {
      throw new DoNotRetryIOException("Merging " + lower.info().getRegionNameAsString() + " (members "
          + lower.members() + ") and " + upper.info().getRegionNameAsString() + " (members " + upper.members()
          + ") is not supported by Basalt while no region server holds a copy of both: move a member of one to a"
          + " server of the other first");
    }
    var rs = servers.control(servers.liveAt(together.get()).orElseThrow());
    boolean lowerIsLarger = rs.groupMerges().logBytes(lower.info()) >= rs.groupMerges().logBytes(upper.info());
    // The founder must hold a member of both, whichever is the base: founderServer is symmetric in that.
    return GroupMergeProtocol.begin("gmerge-" + lower.info().getEncodedName(), low, up, lowerIsLarger, mergedRegionId);
  }

  /**
   * When {@code lower} and {@code upper} share no server: the member change that brings them together, {from, to}:
   * a secondary of {@code upper} (its primary {@code upperPrimary} keeps serving) moves to a server of {@code lower}.
   * Empty when they share a server already.
   */
  static Optional<ServerName[]> colocatingMove(RegionRecord lower, RegionRecord upper, ServerName upperPrimary) {
    boolean shared = upper.members().stream().anyMatch(m -> lower.memberOn(m.server()).isPresent());
    if (shared) {
      return Optional.empty();
    }
    ServerName from = upper.members().stream().map(Member::server)
        .filter(s -> !s.getAddress().equals(upperPrimary.getAddress())).findFirst()
        .orElse(upper.members().get(0).server());
    return Optional.of(new ServerName[] {from, lower.members().get(0).server()});
  }

  /** The server of the region's primary (live), for {@link #colocatingMove}. */
  ServerName primaryOf(RegionRecord r) {
    return replicated.primaryOf(r);
  }

  private Side side(RegionRecord r) throws IOException {
    for (Member m : r.members()) {
      if (servers.liveAt(m.server()).isEmpty()) {
        throw new HBaseIOException("cannot merge " + r.info().getRegionNameAsString() + " now: its member on "
            + m.server().getAddress() + " is down, and every member must be up to merge");
      }
    }
    ServerName primary = servers.liveAt(replicated.primaryOf(r)).orElseThrow(() ->
        new HBaseIOException(r.info().getRegionNameAsString() + " has no live primary now"));
    ServerName recorded = r.members().stream().map(Member::server).filter(s -> s.getAddress().equals(
        primary.getAddress())).findFirst().orElse(primary);
    return new Side(r.info(), r.group(), recorded, r.members());
  }
}
