package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * The next thing a protocol needs done, as data: the driver executes it where {@link #site()} says and
 * reports {@link Result#DONE} unless the action says it returns something else. Every action is
 * idempotent at the driver: doing it again after it was done, or half done, must be harmless. A region
 * server that returns from a crash has lost its open regions and pins but kept its directories.
 */
public sealed interface Action {
  /** Where the action runs. */
  Site site();

  // ------------------------------------------------------------------ master: ZooKeeper and catalog

  /** Master: create or overwrite the transaction's znode with {@code txn.toBytes()}. */
  record PersistTxn(Txn txn) implements Action {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /** Master: delete the transaction's znode (already gone is fine). */
  record DeleteTxn(String id) implements Action {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * Master: record {@code region} in the catalog (RegionMap and meta) as on {@code server} in {@code
   * state}. Region servers are not told: a SPLITTING or MOVING region keeps being served until its
   * protocol closes it.
   */
  record SetRegionState(RegionInfo region, ServerName server, RegionState state) implements Action {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * Master, in one atomic catalog update: the parent offline and split (state SPLIT, splitA/splitB), both
   * daughters OPEN on {@code server}. From then on clients are sent to the daughters.
   */
  record PublishSplit(RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB, ServerName server)
      implements Action {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * Master: the region OPEN on {@code target} in the catalog, {@code source} as its last server. From
   * then on clients are sent to the target.
   */
  record PublishMove(RegionInfo region, ServerName source, ServerName target) implements Action {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  // ------------------------------------------------------------------ region servers, split

  /**
   * Region server, read only: the row that halves the parent's data (a B+-tree cursor skip; the parent
   * keeps serving). Returns {@link Result.SplitPoint}, or {@link Result.NoSplitPoint} when it has too few
   * rows.
   */
  record ChooseMidpoint(ServerName server, RegionInfo parent) implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * Region server: stop new operations on the parent, drain those in flight, sync and close it, then
   * clone its log into both daughters' directories (hard links for closed segments, a copy of the tail)
   * and make the clones durable (fsync files and directories) before answering. A closed parent is
   * cloned from its directory; existing daughter directories are replaced. The parent's files are left
   * as they were.
   */
  record CloseAndClone(ServerName server, RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB)
      implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * Region server: open both published daughters from their own directories and serve them, the two opens
   * in parallel so that the split's unavailability is one open, not two (already open: nothing to do).
   */
  record OpenDaughters(ServerName server, RegionInfo daughterA, RegionInfo daughterB) implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * Region server: open the region from its own directory and serve it (already open: nothing to do).
   * Used after a move is published, to make sure the target serves it even if it restarted since Open.
   */
  record OpenRegion(ServerName server, RegionInfo region) implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /** Region server: close the region if open and delete its directory (already gone is fine). */
  record DropRegionFiles(ServerName server, RegionInfo region) implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * Region server, undoing a split (after the catalog says the parent is OPEN again): close and delete
   * the daughters' directories if there are any, then open and serve the parent (already open: nothing to
   * do).
   */
  record RollBackSplit(ServerName server, RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB)
      implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * The actions only a merge of replicated regions has ({@link GroupMergeProtocol}), declared in {@link
   * GroupMergeActions}. It also uses {@link SealGroup}, {@link OpenDaughterMember} and {@link DropRegionFiles}.
   */
  non-sealed interface OfGroupMerge extends Action {}

  // ------------------------------------------------------------------ region servers, merge (MergeProtocol)

  /**
   * Master, in one atomic catalog update: the two merged regions gone, the merged one OPEN on {@code server}. From
   * then on clients are sent to the merged region.
   */
  record PublishMerge(RegionInfo lower, RegionInfo upper, RegionInfo merged, ServerName server) implements Action {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * Region server: stop new operations on both regions, drain those in flight, sync and close them, then build the
   * merged region's directory from their two (a clone of the larger one's log filled with the smaller one's
   * records) and make it durable before answering. The directory appears only complete; one already there is
   * kept. The two regions' files are left as they were.
   */
  record CloseAndMerge(ServerName server, RegionInfo lower, RegionInfo upper, RegionInfo merged) implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * Region server, undoing a merge (after the catalog says both regions are OPEN again): close and delete the
   * merged region's directory if there is one, then open and serve both regions (already open: nothing to do).
   */
  record RollBackMerge(ServerName server, RegionInfo lower, RegionInfo upper, RegionInfo merged) implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  // ------------------------------------------------------------------ region servers, move

  /**
   * Source, still serving: stop splitting and log cleaning of the region so that its closed segments stay
   * as they are, pin them and export them. Returns a {@link Result.Manifest} of those segments (and where
   * to fetch them). A closed region (the source restarted) exports all of its segments.
   */
  record PreClose(ServerName source, RegionInfo region) implements Action {
    @Override
    public Site site() {
      return Site.of(source);
    }
  }

  /**
   * Target: pull the manifest's segments from the source into a staging directory, in parallel streams,
   * while the source serves. The driver reports {@link Result#DONE} when the target says it has them all
   * (a ZooKeeper watch), or a failure. Segments already staged are not pulled again.
   */
  record PreOpen(ServerName target, RegionInfo region, ServerName source, Result.Manifest manifest)
      implements Action {
    @Override
    public Site site() {
      return Site.of(target);
    }
  }

  /**
   * Source: stop new operations, drain, sync and close the region, keeping its files pinned. Returns the
   * {@link Result.Manifest} of every segment of the closed region (already closed: the same answer).
   */
  record Close(ServerName source, RegionInfo region) implements Action {
    @Override
    public Site site() {
      return Site.of(source);
    }
  }

  /**
   * Target: pull what the final manifest lists and staging lacks, make the copy durable as the region's
   * own directory, open it and serve it (already open: nothing to do). No client is sent here until
   * {@link PublishMove}.
   */
  record Open(ServerName target, RegionInfo region, ServerName source, Result.Manifest finalManifest)
      implements Action {
    @Override
    public Site site() {
      return Site.of(target);
    }
  }

  /**
   * Source, once the move is published: delete its copy (closed already), unpin, and answer requests for
   * the region with {@code RegionMovedException(target)} for a while.
   *
   * <p>While the source is down this fails and the transaction waits for it. A driver may instead report
   * it done for a source whose ZooKeeper session has expired, but only if returning region servers delete
   * the directories of regions that the catalog maps elsewhere and no transaction in flight names.
   */
  record ForgetRegion(ServerName source, RegionInfo region, ServerName target) implements Action {
    @Override
    public Site site() {
      return Site.of(source);
    }
  }

  /**
   * Target, undoing a move: stop any pull, close the region if it opened it, delete staging and any copy.
   * No client was ever sent there, so nothing acknowledged is lost.
   *
   * <p>While the target is down this fails and the rollback waits for it (the source, closed if the
   * failure came after Close, stays closed). A driver may instead report it done for a target whose
   * ZooKeeper session has expired (such a server serves nothing), but only if returning region servers
   * delete staging and the directories of regions that the catalog maps elsewhere and no transaction in
   * flight names.
   */
  record AbortMoveIn(ServerName target, RegionInfo region) implements Action {
    @Override
    public Site site() {
      return Site.of(target);
    }
  }

  /**
   * Source, undoing a move (after {@link AbortMoveIn}, and after the catalog says OPEN on the source
   * again): unpin, allow splitting and cleaning again, and serve the region (reopen it if it was closed).
   */
  record AbortMoveAway(ServerName source, RegionInfo region) implements Action {
    @Override
    public Site site() {
      return Site.of(source);
    }
  }

  // ------------------------------------------------------------------ replicated regions, members

  /**
   * Master: the region's member list in the catalog (RegionMap and meta) becomes {@code members}, its state
   * unchanged. A new member is listed, with its reserved replication port, before it starts; an old one is
   * unlisted only once its group no longer counts it. Region servers are not told: a member learns the list
   * when it is next opened (until then a secondary that does not know the new primary answers
   * NotServingRegionException instead of naming it, and the client looks the region up again).
   */
  record PublishMembers(RegionInfo region, List<Member> members) implements Action {
    public PublishMembers {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * Region server: open this server's member of the region with {@code members} as its group (joining
   * empty when it has no data here: the group streams its log, or copies a live member's files), and
   * answer once it holds everything the group's primary had committed by then (already open: only the
   * wait). From then on every acknowledged write is on it or will be acknowledged by it.
   */
  record JoinMember(ServerName server, RegionInfo region, List<Member> members) implements Action {
    public JoinMember {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * Master: find the region's primary (as its group reports it) and have its server hand the role over
   * (JE's master transfer: the successor catches up first, no data moves), then wait for the successor's
   * report. With {@code awayFrom} null: to {@code to}, unless it is primary already. Otherwise only if the
   * primary is on {@code awayFrom}: to {@code to}, or to any other live member when {@code to} is null.
   * Fails while the group has no primary (retried).
   */
  record TransferPrimary(RegionInfo region, ServerName to, ServerName awayFrom) implements Action {
    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * Region server: stop its member of the region (new operations refused, those in flight drained, the
   * log synced); the files stay. A server that is down runs nothing: the driver reports it done, since a
   * returning server is given only members the catalog lists of regions no transaction holds.
   */
  record CloseMember(ServerName server, RegionInfo region) implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * On any live server of {@code via} that runs a member of the region: ask the group's primary to delete
   * {@code gone} from the group, which then counts it neither for elections nor for acknowledgements (it
   * must not be running; a member that is down is fine). Already deleted, or never joined: done. JE's
   * deletion, not its removal: the node name (the server's address) may join the group again later.
   */
  record DeleteMember(RegionInfo region, List<ServerName> via, Member gone) implements Action {
    public DeleteMember {
      via = List.copyOf(via);
      if (via.isEmpty()) {
        throw new IllegalArgumentException("deleting a member needs another member to ask through");
      }
    }

    @Override
    public Site site() {
      return Site.of(via.get(0));
    }
  }

  /**
   * Region server: stop its member of the region if it runs and delete its directory (already gone is
   * fine), releasing its replication port. Only for a member the catalog no longer lists. A server that is
   * down: the driver reports it done, since the master drops a returning server's directories of
   * replicated regions that do not list it and that no transaction holds.
   */
  record DropMemberFiles(ServerName server, RegionInfo region) implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  // ------------------------------------------------------------------ split of a replica group

  /**
   * Master: a replication port for each daughter's member on each member's server (asking the server, as a
   * new region's members get theirs), none of them a port the catalog records on that machine (the
   * parent's stay reserved until it is dropped) nor one the other daughter got. Returns {@link
   * Result.DaughterMembers} in the order of {@code members}. Nothing is recorded: a failure changes nothing.
   */
  record ChooseDaughterPorts(RegionInfo parent, List<Member> members, RegionInfo daughterA, RegionInfo daughterB)
      implements Action {
    public ChooseDaughterPorts {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * The parent's primary: stop its writes for good (in flight ones finish, later ones are refused; clients
   * retry and find the daughters once published), then commit a barrier every member of the group must
   * acknowledge. Returns the barrier's {@link Result.LogPosition}. Fails if this member is not the primary
   * or a member does not acknowledge (its writes resume).
   */
  record SealGroup(ServerName primary, RegionInfo parent) implements Action {
    @Override
    public Site site() {
      return Site.of(primary);
    }
  }

  /**
   * A member's server: wait a few seconds at most for the member's log to reach {@code barrier} (what the
   * sealed primary's log holds), note where it ends, close it, and clone its log into both daughters'
   * directories there, as {@link CloseAndClone} does. Returns the member's {@link Result.LogPosition} at its
   * close. A member that is not open (its server restarted) cannot tell its position: that fails.
   */
  record CloseAndCloneMember(ServerName server, RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB,
      long barrier) implements Action {
    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * Several region-server actions at once, each on its own server (a replicated split closes its
   * secondaries, and opens its daughters' members, this way: one after another they cost a second each).
   * The driver runs them in parallel and reports {@link Result.Each}, the parts' results in order; it fails
   * if any part fails, the others having run or not. So each part must be idempotent on its own, as every
   * action is. {@link #site()} is the first part's server; {@link #servers()} names them all.
   */
  record InParallel(List<Action> parts) implements Action {
    public InParallel {
      parts = List.copyOf(parts);
      if (parts.isEmpty() || parts.stream().anyMatch(p -> p.site().isMaster() || p instanceof InParallel)) {
        throw new IllegalArgumentException("parts run in parallel are region-server actions: " + parts);
      }
    }

    @Override
    public Site site() {
      return parts.get(0).site();
    }

    /** Every server a part runs on. */
    public List<ServerName> servers() {
      return parts.stream().map(p -> p.site().regionServer()).distinct().toList();
    }
  }

  /**
   * The founder's server (the first of {@code members}): make its clone of the daughter the only member of
   * a new group named {@code group} at its new port (once; a repeat finds it done).
   */
  record FoundDaughterGroup(RegionInfo daughter, String group, List<Member> members) implements Action {
    public FoundDaughterGroup {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.of(members.get(0).server());
    }
  }

  /**
   * Master, in one atomic catalog update: the parent offline and split (state SPLIT; its record keeps its
   * members, so their ports stay reserved), both daughters OPEN with their members and the parent's group
   * name.
   */
  record PublishGroupSplit(RegionInfo parent, RegionInfo daughterA, List<Member> membersA, RegionInfo daughterB,
      List<Member> membersB) implements Action {
    public PublishGroupSplit {
      membersA = List.copyOf(membersA);
      membersB = List.copyOf(membersB);
    }

    @Override
    public Site site() {
      return Site.MASTER;
    }
  }

  /**
   * {@code server}: open its member of the published daughter from its clone, in the group {@code group} of
   * {@code members}, serving the daughter's range only (already open: nothing to do). A clone of a snapshot opens
   * its founder this way too (its range is the snapshot region's).
   */
  record OpenDaughterMember(ServerName server, RegionInfo daughter, String group, List<Member> members)
      implements Action {
    public OpenDaughterMember {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /**
   * A member's server, undoing a replicated split (after the catalog says the parent is OPEN again): close
   * and delete the daughters' directories there, then serve its member of the parent again (writes
   * resume on a sealed primary; a closed member reopens and rejoins the parent's group).
   */
  record RollBackGroupSplit(ServerName server, RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB,
      String group, List<Member> members) implements Action {
    public RollBackGroupSplit {
      members = List.copyOf(members);
    }

    @Override
    public Site site() {
      return Site.of(server);
    }
  }

  /** The actions of the snapshot protocols, declared in {@link SnapshotActions}. */
  non-sealed interface OfSnapshot extends Action {}
}
