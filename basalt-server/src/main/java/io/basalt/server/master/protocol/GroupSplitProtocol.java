package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import io.basalt.server.master.protocol.Outcome.Kind;
import io.basalt.server.master.protocol.SplitTxn.Phase;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The split of a replicated region (a JE replica group of R members) as a pure state machine. Every member
 * clones its own log locally, as an unreplicated split does (no copy of the region crosses the network);
 * one member per daughter refounds the group from its clone at a new port and the others join it with
 * theirs, all at the same log position. The actions, in order:
 * <pre>
 *   ChooseMidpoint(primary, parent)           only when no split row was given; read only
 *   ChooseDaughterPorts                       a new port per daughter member; failure: ROLLED_BACK
 *   PersistTxn(STARTED)                       the ports recorded; failure: DeleteTxn, ROLLED_BACK
 *   SetRegionState(parent, SPLITTING)         failure: roll back
 *   SealGroup(primary)                        writes stop; barrier acknowledged by ALL; failure: roll back
 *   InParallel(CloseAndCloneMember(secondary) x R-1)
 *   InParallel(CloseAndCloneMember(primary),  the secondaries at once, the primary last; each must report
 *     FoundDaughterGroup(A), (B))             the barrier's log position, else roll back. The founders are
 *                                             secondaries, cloned already: their groups are refounded while
 *                                             the primary closes (rolling back drops them with the clones)
 *   PersistTxn(CLONED)                        POINT OF NO RETURN; from here on a failure repeats the action
 *   InParallel(FoundDaughterGroup(A), (B))    on each daughter's founder (once, marker file: done already
 *                                             unless a new master recovered the split here)
 *   PublishGroupSplit                         parent SPLIT (keeping its members), daughters OPEN
 *   InParallel(OpenDaughterMember x 2)        both founders at once (clients write to them as soon as open)
 *   InParallel(OpenDaughterMember x 2R-2)     then all the other members at once
 *   PersistTxn(PUBLISHED)
 *   DropRegionFiles(member, parent) x R
 *   DeleteTxn                                 SPLIT
 * roll back:
 *   PersistTxn(ROLLING_BACK, reason), SetRegionState(parent, OPEN),
 *   RollBackGroupSplit(member) x R, DeleteTxn                          ROLLED_BACK
 * </pre>
 * Why it is safe: a member is cloned only once it is closed, after the sealed primary's barrier, so every
 * clone ends at the barrier; a member whose log ends elsewhere (one that missed writes, or a primary that
 * wrote after it) makes the split roll back before the point of no return. The parent's directories are
 * never changed by a clone, so rolling back loses nothing. Daughters keep the parent's group name and UUID
 * (JE cannot change them), so sibling groups are kept apart by their members' addresses: daughters get
 * ports of their own, and the parent's stay reserved in the catalog while its record exists.
 *
 * <p>Recovery from the last persisted record: STARTED rolls back (the primary may be sealed and members
 * closed and cloned: the undo drops the clones and serves the parent's members again); ROLLING_BACK
 * finishes rolling back; CLONED founds (again: a founder that did already skips it), publishes and opens;
 * PUBLISHED makes sure every daughter member is open and drops the parent's files. The barrier's position
 * is not recorded: only a run that reached CLONED needs it, and that run checked it.
 *
 * <p>Precondition of {@link #begin}: the parent is OPEN in the catalog, all its members live, {@code
 * primary} the member its group elected, and no other transaction holds it.
 */
public final class GroupSplitProtocol extends StepMachine<GroupSplitProtocol.Stage> implements Protocol {
  enum Stage {
    CHOOSE_ROW, CHOOSE_PORTS, RECORD_STARTED, MARK_SPLITTING, SEAL, CLONE, RECORD_CLONED, FOUND, PUBLISH,
    OPEN_MEMBERS, RECORD_PUBLISHED, DROP_PARENT, RECORD_ROLLBACK, MARK_OPEN, UNDO, DELETE
  }

  private final String id;
  private final RegionInfo parent;
  private final String group;
  private final ServerName primary;
  private final List<Member> members;
  private final long daughterRegionId;
  /** The split row once known, before the ports are chosen (then it is in {@link #txn}). */
  private byte[] splitRow;
  /** The record as last persisted, or about to be; null until the daughters' ports are known. */
  private GroupSplitTxn txn;
  /** The barrier's log position, once the primary sealed the group (this run only). */
  private long barrier = -1;
  /**
   * Which member (or daughter) the current per-member stage is at; in CLONE 0 is the secondaries and 1 the
   * primary, in OPEN_MEMBERS 0 is the founders and 1 the others.
   */
  private int index;
  private Outcome ending;

  private GroupSplitProtocol(String id, RegionInfo parent, String group, ServerName primary, List<Member> members,
      long daughterRegionId, Stage first) {
    super(first);
    this.id = id;
    this.parent = parent;
    this.group = group;
    this.primary = primary;
    this.members = List.copyOf(members);
    this.daughterRegionId = daughterRegionId;
  }

  /**
   * Starts splitting the replicated {@code parent}, whose JE group {@code group} has {@code members} and
   * elected the one on {@code primary}, at {@code splitRow} or, when empty, at the middle row the primary
   * picks. A split row not strictly inside the parent ends it REFUSED at once.
   */
  public static GroupSplitProtocol begin(String id, RegionInfo parent, String group, List<Member> members,
      ServerName primary, Optional<byte[]> splitRow, long daughterRegionId) {
    if (daughterRegionId <= parent.getRegionId()) {
      throw new IllegalArgumentException("daughter region id " + daughterRegionId + " is not after the parent's "
          + parent.getRegionId());
    }
    if (members.stream().noneMatch(m -> m.isOn(primary))) {
      throw new IllegalArgumentException(primary + " holds no member of " + parent.getRegionNameAsString() + " "
          + members);
    }
    GroupSplitProtocol p = new GroupSplitProtocol(id, parent, group, primary, members, daughterRegionId,
        Stage.CHOOSE_ROW);
    splitRow.ifPresent(p::startAt);
    return p;
  }

  /** Finishes or undoes a replicated split found in ZooKeeper, as its phase says (see the class comment). */
  public static GroupSplitProtocol recover(GroupSplitTxn txn) {
    Stage first = switch (txn.phase()) {
      case STARTED -> Stage.RECORD_ROLLBACK;
      case ROLLING_BACK -> Stage.MARK_OPEN;
      case CLONED -> Stage.FOUND;
      case PUBLISHED -> Stage.OPEN_MEMBERS;
    };
    GroupSplitProtocol p = new GroupSplitProtocol(txn.id(), txn.parent(), txn.group(), txn.primary(), txn.members(),
        txn.daughterRegionId(), first);
    p.txn = txn;
    p.splitRow = txn.splitRow();
    p.ending = switch (txn.phase()) {
      case STARTED -> new Outcome(Kind.ROLLED_BACK, "a new master found the split before its clones were recorded");
      case ROLLING_BACK -> new Outcome(Kind.ROLLED_BACK, txn.reason());
      case CLONED, PUBLISHED -> p.splitOutcome();
    };
    return p;
  }

  @Override
  public String id() {
    return id;
  }

  /** The record as last persisted (or being persisted); empty before the daughters' ports are chosen. */
  public Optional<GroupSplitTxn> txn() {
    return Optional.ofNullable(txn);
  }

  @Override
  public boolean committed() {
    return txn != null && (txn.phase() == Phase.CLONED || txn.phase() == Phase.PUBLISHED);
  }

  private void startAt(byte[] row) {
    boolean inside = row.length > 0 && Bytes.compareTo(row, parent.getStartKey()) > 0 && parent.containsRow(row);
    if (!inside) {
      finish(new Outcome(Kind.REFUSED, "split row " + Bytes.toStringBinary(row) + " is not inside "
          + parent.getRegionNameAsString() + " (or is its start key)"));
      return;
    }
    splitRow = row.clone();
    goTo(Stage.CHOOSE_PORTS);
  }

  private Outcome splitOutcome() {
    return new Outcome(Kind.SPLIT, parent.getRegionNameAsString() + " split at " + Bytes.toStringBinary(splitRow)
        + " (" + members.size() + " members each)");
  }

  private void rollBack(String reason) {
    ending = new Outcome(Kind.ROLLED_BACK, reason);
    enter(Stage.RECORD_ROLLBACK);
  }

  private void enter(Stage stage) {
    index = 0;
    goTo(stage);
  }

  private RegionInfo daughterA() {
    return GroupSplitTxn.daughterA(parent, splitRow, daughterRegionId);
  }

  private RegionInfo daughterB() {
    return GroupSplitTxn.daughterB(parent, splitRow, daughterRegionId);
  }

  @Override
  Action actionFor(Stage stage) {
    int n = members.size();
    return switch (stage) {
      case CHOOSE_ROW -> new Action.ChooseMidpoint(primary, parent);
      case CHOOSE_PORTS -> new Action.ChooseDaughterPorts(parent, members, daughterA(), daughterB());
      case RECORD_STARTED -> new Action.PersistTxn(txn);
      case MARK_SPLITTING -> new Action.SetRegionState(parent, primary, RegionState.SPLITTING);
      case SEAL -> new Action.SealGroup(primary, parent);
      case CLONE -> index == 0 ? new Action.InParallel(secondaries().stream().map(this::closeAndClone).toList())
          : closePrimaryAndFound();
      case RECORD_CLONED -> new Action.PersistTxn(txn.at(Phase.CLONED));
      case FOUND -> new Action.InParallel(List.of(new Action.FoundDaughterGroup(daughterA(), group, txn.membersA()),
          new Action.FoundDaughterGroup(daughterB(), group, txn.membersB())));
      case PUBLISH -> new Action.PublishGroupSplit(parent, daughterA(), txn.membersA(), daughterB(), txn.membersB());
      case OPEN_MEMBERS -> {
        // Both daughters' founders (their first primaries) before anyone else: the others join them.
        List<Action> opens = new ArrayList<>();
        List<Integer> which = index == 0 ? List.of(0) : java.util.stream.IntStream.range(1, n).boxed().toList();
        for (int i : which) {
          opens.add(new Action.OpenDaughterMember(txn.membersA().get(i).server(), daughterA(), group,
              txn.membersA()));
          opens.add(new Action.OpenDaughterMember(txn.membersB().get(i).server(), daughterB(), group,
              txn.membersB()));
        }
        yield new Action.InParallel(opens);
      }
      case RECORD_PUBLISHED -> new Action.PersistTxn(txn.at(Phase.PUBLISHED));
      case DROP_PARENT -> new Action.DropRegionFiles(members.get(index).server(), parent);
      case RECORD_ROLLBACK -> new Action.PersistTxn(txn.rollingBack(ending.reason()));
      case MARK_OPEN -> new Action.SetRegionState(parent, primary, RegionState.OPEN);
      case UNDO -> new Action.RollBackGroupSplit(members.get(index).server(), parent, daughterA(), daughterB(), group,
          members);
      case DELETE -> new Action.DeleteTxn(id);
    };
  }

  @Override
  boolean accepts(Stage stage, Result result) {
    return switch (stage) {
      case CHOOSE_ROW -> result instanceof Result.SplitPoint || result instanceof Result.NoSplitPoint;
      case CHOOSE_PORTS -> result instanceof Result.DaughterMembers;
      case SEAL -> result instanceof Result.LogPosition;
      case CLONE -> index == 0 ? result instanceof Result.Each each && each.results().size() == members.size() - 1
          && each.results().stream().allMatch(Result.LogPosition.class::isInstance)
          : result instanceof Result.LogPosition
              || result instanceof Result.Each each && each.results().get(0) instanceof Result.LogPosition;
      case FOUND, OPEN_MEMBERS -> result instanceof Result.Each;
      default -> result instanceof Result.Done;
    };
  }

  @Override
  void onCompleted(Stage stage, Result result) {
    int n = members.size();
    switch (stage) {
      case CHOOSE_ROW -> {
        if (result instanceof Result.SplitPoint point) {
          startAt(point.row());
        } else {
          finish(new Outcome(Kind.REFUSED, parent.getRegionNameAsString() + " has no row to split at: "
              + ((Result.NoSplitPoint) result).reason()));
        }
      }
      case CHOOSE_PORTS -> {
        Result.DaughterMembers chosen = (Result.DaughterMembers) result;
        String wrong = checkPorts(chosen);
        if (wrong != null) {
          finish(new Outcome(Kind.ROLLED_BACK, wrong));
          return;
        }
        txn = new GroupSplitTxn(id, Phase.STARTED, parent, group, primary, splitRow, daughterRegionId, members,
            founderFirst(chosen.a(), 0), founderFirst(chosen.b(), 1), "");
        goTo(Stage.RECORD_STARTED);
      }
      case RECORD_STARTED -> goTo(Stage.MARK_SPLITTING);
      case MARK_SPLITTING -> goTo(Stage.SEAL);
      case SEAL -> {
        barrier = ((Result.LogPosition) result).position();
        enter(Stage.CLONE);
        if (n == 1) {
          index = 1; // no secondary
        }
      }
      case CLONE -> {
        List<Result> positions = index == 0 ? ((Result.Each) result).results()
            : List.of(result instanceof Result.Each each ? each.results().get(0) : result);
        List<Member> closed = index == 0 ? secondaries() : List.of(txn.closeOrder().get(n - 1));
        for (int i = 0; i < positions.size(); i++) {
          long at = ((Result.LogPosition) positions.get(i)).position();
          if (at != barrier) {
            rollBack("the member on " + closed.get(i).server() + " closed at log position " + at
                + ", not at the barrier's " + barrier + ": members at different positions are never split");
            return;
          }
        }
        if (++index == 2) {
          goTo(Stage.RECORD_CLONED);
        }
      }
      case RECORD_CLONED -> {
        txn = txn.at(Phase.CLONED);
        ending = splitOutcome();
        enter(Stage.FOUND);
      }
      case FOUND -> goTo(Stage.PUBLISH);
      case PUBLISH -> enter(Stage.OPEN_MEMBERS);
      case OPEN_MEMBERS -> {
        if (++index == 2 || n == 1) {
          enter(txn.phase() == Phase.PUBLISHED ? Stage.DROP_PARENT : Stage.RECORD_PUBLISHED);
        }
      }
      case RECORD_PUBLISHED -> {
        txn = txn.at(Phase.PUBLISHED);
        enter(Stage.DROP_PARENT);
      }
      case DROP_PARENT, UNDO -> {
        if (++index == n) {
          goTo(Stage.DELETE);
        }
      }
      case RECORD_ROLLBACK -> {
        txn = txn.rollingBack(ending.reason());
        goTo(Stage.MARK_OPEN);
      }
      case MARK_OPEN -> enter(Stage.UNDO);
      case DELETE -> finish(ending);
    }
  }

  /** The parent's members but the primary's, in the order they close. */
  private List<Member> secondaries() {
    List<Member> order = txn.closeOrder();
    return order.subList(0, order.size() - 1);
  }

  /**
   * The primary's close and clone, with the refounding of each daughter whose founder is a secondary (its
   * clone is complete): that is most of the time the writers would otherwise wait between the clones and
   * the daughters' opening.
   */
  private Action closePrimaryAndFound() {
    List<Action> parts = new ArrayList<>();
    parts.add(closeAndClone(primary));
    if (!txn.membersA().get(0).isOn(primary)) {
      parts.add(new Action.FoundDaughterGroup(daughterA(), group, txn.membersA()));
    }
    if (!txn.membersB().get(0).isOn(primary)) {
      parts.add(new Action.FoundDaughterGroup(daughterB(), group, txn.membersB()));
    }
    return parts.size() == 1 ? parts.get(0) : new Action.InParallel(parts);
  }

  private Action closeAndClone(Member m) {
    return closeAndClone(m.server());
  }

  private Action closeAndClone(ServerName server) {
    return new Action.CloseAndCloneMember(server, parent, daughterA(), daughterB(), barrier);
  }

  /**
   * Each daughter's members in the parent's order, one per parent member on the same server, at ports
   * that are none of the parent's and not shared between the daughters on one machine. Null if so.
   */
  private String checkPorts(Result.DaughterMembers chosen) {
    int n = members.size();
    if (chosen.a().size() != n || chosen.b().size() != n) {
      return "ports were chosen for " + chosen.a().size() + " and " + chosen.b().size() + " members, not " + n;
    }
    Set<String> used = new HashSet<>();
    members.forEach(m -> used.add(m.server().getHostname() + ":" + m.port()));
    for (int i = 0; i < n; i++) {
      for (Member d : List.of(chosen.a().get(i), chosen.b().get(i))) {
        if (!d.isOn(members.get(i).server())) {
          return "a daughter member was placed on " + d.server() + ", not with the parent's on "
              + members.get(i).server();
        }
        if (!used.add(d.server().getHostname() + ":" + d.port())) {
          return "replication port " + d.port() + " on " + d.server().getHostname() + " is taken";
        }
      }
    }
    return null;
  }

  /**
   * The daughter's members, its founder first: daughter A's on the first secondary, B's on the second, so
   * that the two new groups start with their primaries on different servers, and both founders' clones
   * exist before the primary closes (with one secondary both are there; with none, on the primary).
   */
  private List<Member> founderFirst(List<Member> daughter, int which) {
    List<Member> order = new ArrayList<>();
    members.stream().filter(m -> !m.isOn(primary)).forEach(order::add);
    members.stream().filter(m -> m.isOn(primary)).forEach(order::add);
    Member founderOfParent = order.get(Math.min(which, Math.max(0, order.size() - 2)));
    List<Member> out = new ArrayList<>();
    for (int i = 0; i < members.size(); i++) {
      if (members.get(i).equals(founderOfParent)) {
        out.add(0, daughter.get(i));
      } else {
        out.add(daughter.get(i));
      }
    }
    return out;
  }

  @Override
  void onFailed(Stage stage, String reason) {
    switch (stage) {
      // Nothing recorded yet: nothing to undo (ports a server handed out are free again once unused).
      case CHOOSE_ROW, CHOOSE_PORTS -> finish(new Outcome(Kind.ROLLED_BACK, reason));
      // The record may or may not exist: make sure it does not.
      case RECORD_STARTED -> {
        ending = new Outcome(Kind.ROLLED_BACK, reason);
        goTo(Stage.DELETE);
      }
      // Before the point of no return (a failed CLONED record may have been written: the rollback record
      // overwrites it before anything is undone).
      case MARK_SPLITTING, SEAL, CLONE, RECORD_CLONED -> rollBack(reason);
      // After it, and while rolling back: the same action again (the same member).
      default -> goTo(stage);
    }
  }
}
