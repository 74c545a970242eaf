package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.master.protocol.ReplaceMemberProtocol;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseIOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether a replicated region's members can change now and prepares the change ({@link
 * ReplaceMemberProtocol}): checks, a replication port reserved on the new member's server, any stale copy
 * there dropped. Also drops the stray copies a returning server still has of regions that no longer list
 * it (a member deleted while its server was down).
 */
final class MemberChangePlanner {
  private static final Logger LOG = LoggerFactory.getLogger(MemberChangePlanner.class);

  private final Catalog catalog;
  private final ServerManager servers;
  private final ReplicatedRegions replicated;

  MemberChangePlanner(Catalog catalog, ServerManager servers, ReplicatedRegions replicated) {
    this.catalog = catalog;
    this.servers = servers;
    this.replicated = replicated;
  }

  /**
   * The protocol that removes {@code r}'s copy on {@code from} (null: none) and adds one on {@code to}
   * (null: none), the new one ending as primary if {@code makePrimary}. Refusals: DoNotRetryIOException
   * for a change that can never work as asked, HBaseIOException (retriable) for one that cannot start now.
   *
   * <p>A removal without a replacement must leave at least a majority of the table's copies ({@code
   * factor}): 2 of 3, so that the region still survives the loss of a server. Whatever the change, the
   * members left must be able to elect a primary (a live majority). A copy is added before the old one goes
   * only when every member is up; with a member down, the change must delete that member first (a group
   * of three with one member down cannot take in a fourth).
   */
  ReplaceMemberProtocol plan(RegionRecord r, int factor, ServerName from, ServerName to, boolean makePrimary)
      throws IOException {
    String name = r.info().getRegionNameAsString();
    if (!r.replicated() || !RegionRecord.OPEN.equals(r.state())) {
      throw new DoNotRetryIOException(name + " is not an open replicated region (" + r.state() + ")");
    }
    if (from == null && to == null) {
      throw new DoNotRetryIOException("a member change of " + name + " needs a server to add or to remove");
    }
    Member removed = null;
    if (from != null) {
      removed = r.memberOn(from).orElseThrow(() -> new DoNotRetryIOException(name + " has no copy on " + from
          + "; its copies are on " + addresses(r.members())));
    }
    ServerName target = null;
    if (to != null) {
      target = servers.liveAt(to).orElseThrow(() -> new HBaseIOException("region server " + to + " is not online"));
      if (r.memberOn(target).isPresent()) {
        throw new DoNotRetryIOException(name + " already has a copy on " + target);
      }
    }
    boolean removedIsLive = removed != null && servers.liveAt(removed.server()).isPresent();
    List<Member> after = new ArrayList<>(r.members());
    after.remove(removed);
    int resultSize = after.size() + (target == null ? 0 : 1);
    if (target == null && resultSize < factor / 2 + 1) {
      throw new DoNotRetryIOException("removing the copy of " + name + " on " + from + " would leave " + resultSize
          + " of its table's " + factor + " copies, fewer than a majority; add a copy elsewhere instead");
    }
    Member leaving = removed;
    List<Member> down = r.members().stream().filter(m -> servers.liveAt(m.server()).isEmpty()).toList();
    List<Member> downAfter = down.stream().filter(m -> !m.equals(leaving)).toList();
    if (resultSize - downAfter.size() < resultSize / 2 + 1) {
      throw new HBaseIOException("changing the members of " + name + " now would leave too few of them up to "
          + "elect a primary (down: " + addresses(downAfter) + ")");
    }
    boolean addFirst = target != null && (removed == null || removedIsLive);
    if (addFirst && !down.isEmpty()) {
      throw new HBaseIOException("cannot add a copy of " + name + " while its copies on " + addresses(down)
          + " are down: replace one of those first");
    }
    Member added = null;
    if (target != null) {
      dropStaleCopy(r.info(), target);
      added = replicated.reserveMember(r.info(), target);
    }
    LOG.info("changing the members of {}: {} -> {}", name, from == null ? "none" : from,
        target == null ? "none" : target + ":" + added.port());
    return ReplaceMemberProtocol.begin("member-" + r.info().getEncodedName(), r.info(), r.members(), removed, added,
        removedIsLive, makePrimary);
  }

  /** A copy left on a server the region does not list (a member deleted while that server was down). */
  private void dropStaleCopy(RegionInfo region, ServerName server) throws IOException {
    if (servers.control(server).storedRegions().contains(region.getEncodedName())) {
      LOG.info("dropping the stale copy of {} on {} before it joins again", region.getRegionNameAsString(), server);
      servers.control(server).dropRegion(region);
    }
  }

  private static List<String> addresses(List<Member> members) {
    return members.stream().map(m -> m.server().getAddress().toString()).toList();
  }
}
