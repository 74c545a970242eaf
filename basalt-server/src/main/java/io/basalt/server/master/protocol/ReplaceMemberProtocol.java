package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import io.basalt.server.master.protocol.Outcome.Kind;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A change of one replicated region's members as a pure state machine: a copy added, removed, or one
 * replaced by another (issue 12, "moving a member is add the new member, then remove the old one"). No
 * data moves through the master: a new member joins the region's JE replica group empty and the group
 * fills it. The actions, with the old member live (add first, then remove):
 * <pre>
 *   PersistTxn(STARTED)                            failure: DeleteTxn, ROLLED_BACK
 *   PublishMembers(members + new)                  the new member's port in the catalog before it starts
 *   JoinMember(new)                                joined, and holds all the primary had committed
 *   PersistTxn(JOINED)                             POINT OF NO RETURN; failures before it roll back
 *   JoinMember(new)                                again: it runs (its server may have restarted since)
 *   TransferPrimary(to new, if the old one is primary, or always for a move)
 *   CloseMember(old)
 *   DeleteMember(old)                              through a remaining member, from JE's group
 *   PublishMembers(members + new - old)
 *   DropMemberFiles(old)
 *   DeleteTxn                                      REPLACED
 * roll back:
 *   PersistTxn(ROLLING_BACK, reason), PublishMembers(members), DropMemberFiles(new),
 *   DeleteMember(new), DeleteTxn                   ROLLED_BACK
 * </pre>
 * With the old member's server down, or with nothing to add, the old member goes first (a group of three
 * with one member down cannot take in a fourth: JE records a new member with a majority of the larger
 * group, three acknowledgements from the two live members):
 * <pre>
 *   PersistTxn(REMOVING_OLD)                       no way back from here
 *   TransferPrimary(away from the old member, if it is primary)
 *   CloseMember(old), DeleteMember(old), PublishMembers(members - old), DropMemberFiles(old)
 *   and, to add one:
 *   PersistTxn(ADDING), PublishMembers(members - old + new), JoinMember(new), PersistTxn(JOINED),
 *   JoinMember(new), [TransferPrimary(to new) for a move], DeleteTxn          REPLACED
 *   a failure before JOINED rolls the addition back as above; the old member stays deleted.
 * </pre>
 * With no old member (a degraded region gaining a copy) only the addition runs, from STARTED.
 *
 * <p>Why no acknowledged write is lost: a write acknowledged before the new member joined is on a
 * majority of the old group; JoinMember waits until the new member holds it too, so once the old member
 * goes, a majority of the new group still holds it. A write acknowledged after the join was counted by a
 * majority of the larger group, so it too survives one member leaving. The new member is counted as a
 * copy only from the JOINED record; before it, the old members alone hold a majority of every write, so
 * undoing the addition (and dropping the new member's files) loses nothing.
 *
 * <p>While the change is in flight, assignment reopens the listed members whose servers restart, except
 * the ones the change opens and closes itself ({@link MemberTxn#ownMembers()}): a group needs its members
 * running to elect a primary and to record a member's arrival or deletion.
 *
 * <p>Recovery from the last persisted record ({@link #recover}): STARTED and ADDING roll the addition
 * back; REMOVING_OLD finishes removing the old member, then adds the new one; JOINED finishes; ROLLING_BACK
 * finishes undoing. Every action is idempotent, so a crash between an action and the record after it lands
 * on the record before it, whose recovery works whether or not the action happened.
 *
 * <p>Precondition of {@link #begin}: the region is replicated, OPEN, held by no other transaction, and
 * {@code added}'s port is reserved on its server.
 */
public final class ReplaceMemberProtocol extends StepMachine<ReplaceMemberProtocol.Stage> implements Protocol {
  enum Stage {
    RECORD_STARTED, HAND_OVER, CLOSE_OLD, DELETE_OLD, UNPUBLISH_OLD, DROP_OLD, RECORD_ADDING, PUBLISH_NEW, JOIN,
    RECORD_JOINED, ENSURE_JOINED, MAKE_PRIMARY, RECORD_ROLLBACK, UNPUBLISH_NEW, DROP_NEW, DELETE_NEW, DELETE
  }

  /** The record as last persisted, or about to be. */
  private MemberTxn txn;
  /** What the protocol reports once its record is deleted. */
  private Outcome ending;

  private ReplaceMemberProtocol(MemberTxn txn, Stage first) {
    super(first);
    this.txn = txn;
  }

  /**
   * Starts changing {@code region}'s {@code members}: {@code removed} goes (null: none), {@code added} comes
   * (null: none). {@code removedIsLive}: the removed member's server is up now, so the new member is added
   * first. {@code makePrimary}: the new member ends as primary. A change that makes no sense (a member
   * added where the region has one, one removed where it has none) ends REFUSED at once.
   */
  public static ReplaceMemberProtocol begin(String id, RegionInfo region, List<Member> members, Member removed,
      Member added, boolean removedIsLive, boolean makePrimary) {
    boolean oldFirst = removed != null && (added == null || !removedIsLive);
    MemberTxn txn = new MemberTxn(id, oldFirst ? MemberTxn.Phase.REMOVING_OLD : MemberTxn.Phase.STARTED, region,
        members, removed, added, oldFirst, makePrimary && added != null, "");
    ReplaceMemberProtocol p = new ReplaceMemberProtocol(txn, Stage.RECORD_STARTED);
    p.ending = p.replacedOutcome();
    String name = region.getRegionNameAsString();
    if (removed != null && members.stream().noneMatch(m -> m.isOn(removed.server()))) {
      p.finish(new Outcome(Kind.REFUSED, name + " has no copy on " + removed.server()));
    } else if (added != null && members.stream().anyMatch(m -> m.isOn(added.server()))
        && (removed == null || !removed.isOn(added.server()))) {
      p.finish(new Outcome(Kind.REFUSED, name + " already has a copy on " + added.server()));
    } else if (added != null && removed != null && removed.isOn(added.server())) {
      p.finish(new Outcome(Kind.REFUSED, name + ": its copy on " + added.server() + " would replace itself"));
    } else if (added == null && members.size() < 2) {
      p.finish(new Outcome(Kind.REFUSED, name + " would be left without a copy"));
    }
    return p;
  }

  /** Finishes or undoes a member change found in ZooKeeper, as its phase says (see the class comment). */
  public static ReplaceMemberProtocol recover(MemberTxn txn) {
    Stage first = switch (txn.phase()) {
      case STARTED, ADDING -> Stage.RECORD_ROLLBACK;
      case REMOVING_OLD -> Stage.HAND_OVER;
      case JOINED -> Stage.ENSURE_JOINED;
      case ROLLING_BACK -> Stage.UNPUBLISH_NEW;
    };
    ReplaceMemberProtocol p = new ReplaceMemberProtocol(txn, first);
    p.ending = switch (txn.phase()) {
      case STARTED, ADDING -> p.rolledBack("a new master found the change before the new member's join was recorded");
      case ROLLING_BACK -> new Outcome(Kind.ROLLED_BACK, txn.reason());
      case REMOVING_OLD, JOINED -> p.replacedOutcome();
    };
    return p;
  }

  @Override
  public String id() {
    return txn.id();
  }

  /** The record as last persisted (or being persisted). */
  public MemberTxn txn() {
    return txn;
  }

  @Override
  public boolean committed() {
    return txn.phase() == MemberTxn.Phase.JOINED || txn.phase() == MemberTxn.Phase.REMOVING_OLD;
  }

  private Outcome replacedOutcome() {
    String name = txn.region().getRegionNameAsString();
    String what = txn.removed() == null ? "gained a copy on " + txn.added().server()
        : txn.added() == null ? "dropped its copy on " + txn.removed().server()
        : "moved its copy from " + txn.removed().server() + " to " + txn.added().server();
    return new Outcome(Kind.REPLACED, name + " " + what);
  }

  private Outcome rolledBack(String reason) {
    return new Outcome(Kind.ROLLED_BACK, txn.oldFirst() ? reason + "; its copy on " + txn.removed().server()
        + " was deleted first (its server is down) and stays deleted" : reason);
  }

  private void rollBack(String reason) {
    ending = rolledBack(reason);
    goTo(Stage.RECORD_ROLLBACK);
  }

  private List<ServerName> servers(List<Member> members) {
    return members.stream().map(Member::server).toList();
  }

  @Override
  Action actionFor(Stage stage) {
    RegionInfo region = txn.region();
    Member removed = txn.removed();
    Member added = txn.added();
    return switch (stage) {
      case RECORD_STARTED -> new Action.PersistTxn(txn);
      case HAND_OVER -> new Action.TransferPrimary(region, null, removed.server());
      case CLOSE_OLD -> new Action.CloseMember(removed.server(), region);
      case DELETE_OLD -> new Action.DeleteMember(region, servers(txn.oldFirst() ? txn.base() : txn.result()), removed);
      case UNPUBLISH_OLD -> new Action.PublishMembers(region, txn.oldFirst() ? txn.base() : txn.result());
      case DROP_OLD -> new Action.DropMemberFiles(removed.server(), region);
      case RECORD_ADDING -> new Action.PersistTxn(txn.at(MemberTxn.Phase.ADDING));
      case PUBLISH_NEW -> new Action.PublishMembers(region, txn.withAdded());
      case JOIN -> new Action.JoinMember(added.server(), region, txn.withAdded());
      case RECORD_JOINED -> new Action.PersistTxn(txn.at(MemberTxn.Phase.JOINED));
      case ENSURE_JOINED -> new Action.JoinMember(added.server(), region, txn.withAdded());
      case MAKE_PRIMARY -> new Action.TransferPrimary(region, added.server(),
          txn.makePrimary() ? null : removed.server());
      case RECORD_ROLLBACK -> new Action.PersistTxn(txn.rollingBack(ending.reason()));
      case UNPUBLISH_NEW -> new Action.PublishMembers(region, txn.base());
      case DROP_NEW -> new Action.DropMemberFiles(added.server(), region);
      case DELETE_NEW -> new Action.DeleteMember(region, servers(txn.base()), added);
      case DELETE -> new Action.DeleteTxn(txn.id());
    };
  }

  @Override
  boolean accepts(Stage stage, Result result) {
    return result instanceof Result.Done;
  }

  @Override
  void onCompleted(Stage stage, Result result) {
    switch (stage) {
      case RECORD_STARTED -> goTo(txn.oldFirst() ? Stage.HAND_OVER : Stage.PUBLISH_NEW);
      case HAND_OVER -> goTo(Stage.CLOSE_OLD);
      case CLOSE_OLD -> goTo(Stage.DELETE_OLD);
      case DELETE_OLD -> goTo(Stage.UNPUBLISH_OLD);
      case UNPUBLISH_OLD -> goTo(Stage.DROP_OLD);
      case DROP_OLD -> goTo(txn.oldFirst() && txn.added() != null ? Stage.RECORD_ADDING : Stage.DELETE);
      case RECORD_ADDING -> {
        txn = txn.at(MemberTxn.Phase.ADDING);
        goTo(Stage.PUBLISH_NEW);
      }
      case PUBLISH_NEW -> goTo(Stage.JOIN);
      case JOIN -> goTo(Stage.RECORD_JOINED);
      case RECORD_JOINED -> {
        txn = txn.at(MemberTxn.Phase.JOINED);
        ending = replacedOutcome();
        goTo(Stage.ENSURE_JOINED);
      }
      case ENSURE_JOINED -> goTo(txn.makePrimary() || removesAfterJoin() ? Stage.MAKE_PRIMARY : afterPrimary());
      case MAKE_PRIMARY -> goTo(afterPrimary());
      case RECORD_ROLLBACK -> {
        txn = txn.rollingBack(ending.reason());
        goTo(Stage.UNPUBLISH_NEW);
      }
      case UNPUBLISH_NEW -> goTo(Stage.DROP_NEW);
      case DROP_NEW -> goTo(Stage.DELETE_NEW);
      case DELETE_NEW -> goTo(Stage.DELETE);
      case DELETE -> finish(ending);
    }
  }

  /** Whether the old member goes after the new one joined (it was live at the start). */
  private boolean removesAfterJoin() {
    return removesAfterJoin(txn);
  }

  private static boolean removesAfterJoin(MemberTxn txn) {
    return !txn.oldFirst() && txn.removed() != null;
  }

  private Stage afterPrimary() {
    return removesAfterJoin() ? Stage.CLOSE_OLD : Stage.DELETE;
  }

  @Override
  void onFailed(Stage stage, String reason) {
    switch (stage) {
      // The record may or may not exist: make sure it does not; nothing else happened.
      case RECORD_STARTED -> {
        ending = new Outcome(Kind.ROLLED_BACK, reason);
        goTo(Stage.DELETE);
      }
      // The addition before its point of no return (a failed JOINED record may have been written: the
      // rollback record overwrites it before anything is undone).
      case RECORD_ADDING, PUBLISH_NEW, JOIN, RECORD_JOINED -> rollBack(reason);
      // The new member's server may have restarted since: make sure it runs, then hand over again.
      case MAKE_PRIMARY -> goTo(Stage.ENSURE_JOINED);
      // Removing the old member once begun, anything else after JOINED, and rolling back: the same action again.
      default -> goTo(stage);
    }
  }
}
