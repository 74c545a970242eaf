package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import io.basalt.server.master.protocol.GroupMergeActions.CloseMemberForMerge;
import io.basalt.server.master.protocol.GroupMergeTxn.Phase;
import io.basalt.server.master.protocol.GroupMergeTxn.Side;
import io.basalt.server.master.protocol.Outcome.Kind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A merge of two adjacent replicated regions (two JE replica groups) as a pure state machine. The larger region is
 * the base: every base member clones its own log locally into the merged region's directory, as a replicated split
 * clones (nothing crosses the network), one of them (the founder, on a server that also holds a member of the other
 * region) refounds the group from its clone and writes the other region's records into it through its replicated
 * environment, and the other base members join it with their clones. The actions, in order:
 * <pre>
 *   ChooseMergedPorts                           a new port per merged member; failure: ROLLED_BACK
 *   PersistTxn(STARTED)                         the ports recorded; failure: DeleteTxn, ROLLED_BACK
 *   SetRegionState(lower, MERGING), (upper)     failure: roll back
 *   InParallel(SealGroup(lower), (upper))       writes stop (held); barriers acknowledged by ALL; failure: roll back
 *   InParallel(CloseMemberForMerge x secondaries of both)   the base's members clone into the merged directory;
 *   InParallel(CloseMemberForMerge x both primaries)        each must report its region's barrier, else roll back
 *   FoundMergedGroup(founder)                   refound + copy of the other region's records; failure: roll back
 *   PersistTxn(FILLED)                          POINT OF NO RETURN; from here on a failure repeats the action
 *   OpenDaughterMember(founder)                 alone in its group: its primary
 *   InParallel(OpenDaughterMember(founder),     the others join from their clones and answer once they hold
 *     JoinMergedMember x others)                what the founder wrote (the copy is then on every member)
 *   PublishGroupMerge                           both regions gone, the merged one OPEN, in one catalog update
 *   PersistTxn(PUBLISHED)
 *   InParallel(DropRegionFiles x every member of both regions)
 *   DeleteTxn                                   MERGED
 * roll back:
 *   PersistTxn(ROLLING_BACK, reason), SetRegionState(lower, OPEN), (upper),
 *   RollBackGroupMerge(member) x every member of both regions, DeleteTxn          ROLLED_BACK
 * </pre>
 * Why no acknowledged write is lost: both groups are sealed with a barrier every member acknowledged, and every
 * member must close at its barrier, so the founder's copy of the other region and every base clone hold every
 * acknowledged write. The merged region is published only once every member holds the founder's copy (the copy is
 * then on all of them, not only the founder, whose loss alone would otherwise lose it), and a client's write to it is
 * acknowledged by a majority of its group, which counts the members that joined. The two
 * regions' directories are never changed, so rolling back before the point of no return loses nothing; the merged
 * region is never published before it, so no client wrote to it. As for split daughters, the merged group keeps the
 * base group's name and UUID (JE cannot change them), and is kept apart from it by new ports.
 *
 * <p>Writes wait from the seal (held on the primaries' servers, as for a split) until a member of the merged region
 * opens there, then are refused until the client finds the merged region in meta.
 *
 * <p>Recovery ({@link #recover}): STARTED rolls back; ROLLING_BACK finishes rolling back; FILLED and PUBLISHED
 * finish the merge. Precondition of {@link #begin}: both regions OPEN, all their members live, and held by no other
 * transaction.
 */
public final class GroupMergeProtocol extends StepMachine<GroupMergeProtocol.Stage> implements Protocol {
  enum Stage {
    CHOOSE_PORTS, RECORD_STARTED, MARK_LOWER, MARK_UPPER, SEAL, CLOSE, FILL, RECORD_FILLED, OPEN_MEMBERS, PUBLISH,
    RECORD_PUBLISHED, DROP, RECORD_ROLLBACK, REOPEN_LOWER, REOPEN_UPPER, UNDO, DELETE
  }

  private final String id;
  /** The record as last persisted, or about to be; before the ports are chosen its merged members are a guess. */
  private GroupMergeTxn txn;
  private boolean portsChosen;
  /** The two barriers, once both primaries are sealed (this run only). */
  private long lowerBarrier = -1;
  private long upperBarrier = -1;
  /** Which part of a stage that has several: CLOSE 0 secondaries, 1 primaries; OPEN 0 founder, 1 others; UNDO. */
  private int index;
  private Outcome ending;

  private GroupMergeProtocol(GroupMergeTxn txn, Stage first) {
    super(first);
    this.id = txn.id();
    this.txn = txn;
  }

  /**
   * Starts merging {@code lower} and {@code upper} (adjacent, lower first) into a region named with {@code
   * mergedRegionId}; {@code baseIsLower}: the lower region is the larger, whose members' logs are kept. Some server
   * must hold members of both ({@link #founderServer}).
   */
  public static GroupMergeProtocol begin(String id, Side lower, Side upper, boolean baseIsLower, long mergedRegionId) {
    Side base = baseIsLower ? lower : upper;
    Side other = baseIsLower ? upper : lower;
    ServerName founder = founderServer(base, other).orElseThrow(() -> new IllegalArgumentException(
        "no server holds members of both " + base.members() + " and " + other.members()));
    // Placeholder members at the base's ports until ChooseMergedPorts answers (never persisted).
    List<Member> guess = new ArrayList<>();
    guess.add(base.members().stream().filter(m -> m.isOn(founder)).findFirst().orElseThrow());
    base.members().stream().filter(m -> !m.isOn(founder)).forEach(guess::add);
    GroupMergeTxn t = new GroupMergeTxn(id, Phase.STARTED, lower, upper, baseIsLower, mergedRegionId, guess, "");
    return new GroupMergeProtocol(t, Stage.CHOOSE_PORTS);
  }

  /**
   * Where the merged region's group is founded: a server holding a member of both regions (the copy reads the other
   * region's closed member there), preferring a base secondary (it closes first) over the base's primary.
   */
  public static Optional<ServerName> founderServer(Side base, Side other) {
    return base.closeOrder().stream().map(Member::server).filter(other::hasMemberOn).findFirst();
  }

  /** Finishes or undoes a replicated merge found in ZooKeeper, as its phase says (see the class comment). */
  public static GroupMergeProtocol recover(GroupMergeTxn txn) {
    Stage first = switch (txn.phase()) {
      case STARTED -> Stage.RECORD_ROLLBACK;
      case ROLLING_BACK -> Stage.REOPEN_LOWER;
      case FILLED, PUBLISHED -> Stage.OPEN_MEMBERS;
    };
    GroupMergeProtocol p = new GroupMergeProtocol(txn, first);
    p.portsChosen = true;
    p.ending = switch (txn.phase()) {
      case STARTED -> new Outcome(Kind.ROLLED_BACK, "a new master found the merge before it was filled");
      case ROLLING_BACK -> new Outcome(Kind.ROLLED_BACK, txn.reason());
      case FILLED, PUBLISHED -> p.mergedOutcome();
    };
    return p;
  }

  @Override
  public String id() {
    return id;
  }

  /** The record as last persisted (or being persisted); empty before the merged region's ports are chosen. */
  public Optional<GroupMergeTxn> txn() {
    return portsChosen ? Optional.of(txn) : Optional.empty();
  }

  @Override
  public boolean committed() {
    return portsChosen && (txn.phase() == Phase.FILLED || txn.phase() == Phase.PUBLISHED);
  }

  private Outcome mergedOutcome() {
    return new Outcome(Kind.MERGED, txn.lower().region().getRegionNameAsString() + " and "
        + txn.upper().region().getRegionNameAsString() + " merged into " + txn.merged().getRegionNameAsString() + " ("
        + txn.mergedMembers().size() + " members)");
  }

  private void rollBack(String reason) {
    ending = new Outcome(Kind.ROLLED_BACK, reason);
    enter(Stage.RECORD_ROLLBACK);
  }

  private void enter(Stage stage) {
    index = 0;
    goTo(stage);
  }

  /** Every member of both regions, lower's first: where undoing and dropping run. */
  private List<Member> allOldMembers() {
    List<Member> all = new ArrayList<>(txn.lower().members());
    all.addAll(txn.upper().members());
    return all;
  }

  private Side sideOf(int oldMemberIndex) {
    return oldMemberIndex < txn.lower().members().size() ? txn.lower() : txn.upper();
  }

  @Override
  Action actionFor(Stage stage) {
    RegionInfo merged = txn.merged();
    Side base = txn.base();
    return switch (stage) {
      case CHOOSE_PORTS -> new GroupMergeActions.ChooseMergedPorts(base.region(), base.members(), merged);
      case RECORD_STARTED, RECORD_FILLED, RECORD_PUBLISHED -> new Action.PersistTxn(txn.at(switch (stage) {
        case RECORD_STARTED -> Phase.STARTED;
        case RECORD_FILLED -> Phase.FILLED;
        default -> Phase.PUBLISHED;
      }));
      case MARK_LOWER -> new Action.SetRegionState(txn.lower().region(), txn.lower().primary(), RegionState.MERGING);
      case MARK_UPPER -> new Action.SetRegionState(txn.upper().region(), txn.upper().primary(), RegionState.MERGING);
      case SEAL -> new Action.InParallel(List.of(new Action.SealGroup(txn.lower().primary(), txn.lower().region()),
          new Action.SealGroup(txn.upper().primary(), txn.upper().region())));
      case CLOSE -> new Action.InParallel(closes(index));
      case FILL -> new GroupMergeActions.FoundMergedGroup(merged, base.group(), txn.mergedMembers(),
          txn.other().region());
      case OPEN_MEMBERS -> {
        List<Member> m = txn.mergedMembers();
        Action founder = new Action.OpenDaughterMember(m.get(0).server(), merged, base.group(), m);
        if (index == 0) {
          yield founder;
        }
        // The founder again (idempotent): a crash of its server since would leave the others nothing to join.
        List<Action> opens = new ArrayList<>(List.of(founder));
        for (Member each : m.subList(1, m.size())) {
          opens.add(new GroupMergeActions.JoinMergedMember(each.server(), merged, base.group(), m));
        }
        yield new Action.InParallel(opens);
      }
      case PUBLISH -> new GroupMergeActions.PublishGroupMerge(txn.lower().region(), txn.upper().region(), merged,
          base.group(), txn.mergedMembers());
      case DROP -> {
        List<Action> drops = new ArrayList<>();
        for (int i = 0; i < allOldMembers().size(); i++) {
          drops.add(new Action.DropRegionFiles(allOldMembers().get(i).server(), sideOf(i).region()));
        }
        yield new Action.InParallel(drops);
      }
      case RECORD_ROLLBACK -> new Action.PersistTxn(txn.rollingBack(ending.reason()));
      case REOPEN_LOWER -> new Action.SetRegionState(txn.lower().region(), txn.lower().primary(), RegionState.OPEN);
      case REOPEN_UPPER -> new Action.SetRegionState(txn.upper().region(), txn.upper().primary(), RegionState.OPEN);
      case UNDO -> {
        Side side = sideOf(index);
        yield new GroupMergeActions.RollBackGroupMerge(allOldMembers().get(index).server(), side.region(), merged,
            side.group(), side.members());
      }
      case DELETE -> new Action.DeleteTxn(id);
    };
  }

  /** The closes of one round: 0 every secondary of both regions, 1 both primaries (sealed, so no election). */
  private List<Action> closes(int round) {
    List<Action> out = new ArrayList<>();
    for (Side s : List.of(txn.lower(), txn.upper())) {
      List<Member> order = s.closeOrder();
      List<Member> these = round == 0 ? order.subList(0, order.size() - 1) : order.subList(order.size() - 1,
          order.size());
      long barrier = s == txn.lower() ? lowerBarrier : upperBarrier;
      for (Member m : these) {
        out.add(new CloseMemberForMerge(m.server(), s.region(), barrier, s == txn.base() ? txn.merged() : null));
      }
    }
    return out;
  }

  @Override
  boolean accepts(Stage stage, Result result) {
    return switch (stage) {
      case CHOOSE_PORTS -> result instanceof Result.MergedMembers;
      case SEAL -> result instanceof Result.Each each && each.results().size() == 2
          && each.results().stream().allMatch(Result.LogPosition.class::isInstance);
      case CLOSE -> result instanceof Result.Each each && each.results().size() == closes(index).size()
          && each.results().stream().allMatch(Result.LogPosition.class::isInstance);
      case DROP -> result instanceof Result.Each;
      case OPEN_MEMBERS -> result instanceof Result.Each || result instanceof Result.Done;
      default -> result instanceof Result.Done;
    };
  }

  @Override
  void onCompleted(Stage stage, Result result) {
    switch (stage) {
      case CHOOSE_PORTS -> {
        List<Member> chosen = ((Result.MergedMembers) result).members();
        String wrong = checkPorts(chosen);
        if (wrong != null) {
          finish(new Outcome(Kind.ROLLED_BACK, wrong));
          return;
        }
        List<Member> founderFirst = new ArrayList<>();
        ServerName founder = txn.mergedMembers().get(0).server();
        chosen.stream().filter(m -> m.isOn(founder)).forEach(founderFirst::add);
        chosen.stream().filter(m -> !m.isOn(founder)).forEach(founderFirst::add);
        txn = new GroupMergeTxn(id, Phase.STARTED, txn.lower(), txn.upper(), txn.baseIsLower(), txn.mergedRegionId(),
            founderFirst, "");
        portsChosen = true;
        goTo(Stage.RECORD_STARTED);
      }
      case RECORD_STARTED -> goTo(Stage.MARK_LOWER);
      case MARK_LOWER -> goTo(Stage.MARK_UPPER);
      case MARK_UPPER -> goTo(Stage.SEAL);
      case SEAL -> {
        List<Result> barriers = ((Result.Each) result).results();
        lowerBarrier = ((Result.LogPosition) barriers.get(0)).position();
        upperBarrier = ((Result.LogPosition) barriers.get(1)).position();
        enter(Stage.CLOSE);
      }
      case CLOSE -> {
        List<Action> closed = closes(index);
        List<Result> positions = ((Result.Each) result).results();
        for (int i = 0; i < positions.size(); i++) {
          CloseMemberForMerge c = (CloseMemberForMerge) closed.get(i);
          long at = ((Result.LogPosition) positions.get(i)).position();
          if (at != c.barrier()) {
            rollBack("the member of " + c.region().getRegionNameAsString() + " on " + c.server()
                + " closed at log position " + at + ", not at the barrier's " + c.barrier()
                + ": members at different positions are never merged");
            return;
          }
        }
        if (++index == 2) {
          goTo(Stage.FILL);
        }
      }
      case FILL -> goTo(Stage.RECORD_FILLED);
      case RECORD_FILLED -> {
        txn = txn.at(Phase.FILLED);
        ending = mergedOutcome();
        enter(Stage.OPEN_MEMBERS);
      }
      case OPEN_MEMBERS -> {
        if (++index == 2 || txn.mergedMembers().size() == 1) {
          goTo(txn.phase() == Phase.PUBLISHED ? Stage.DROP : Stage.PUBLISH);
        }
      }
      case PUBLISH -> goTo(Stage.RECORD_PUBLISHED);
      case RECORD_PUBLISHED -> {
        txn = txn.at(Phase.PUBLISHED);
        goTo(Stage.DROP);
      }
      case DROP -> goTo(Stage.DELETE);
      case RECORD_ROLLBACK -> {
        txn = txn.rollingBack(ending.reason());
        goTo(Stage.REOPEN_LOWER);
      }
      case REOPEN_LOWER -> goTo(Stage.REOPEN_UPPER);
      case REOPEN_UPPER -> enter(Stage.UNDO);
      case UNDO -> {
        if (++index == allOldMembers().size()) {
          goTo(Stage.DELETE);
        }
      }
      case DELETE -> finish(ending);
    }
  }

  /**
   * The merged members: one per base member, on its server, at ports that are none of either region's on that
   * machine and not shared among them. Null if so.
   */
  private String checkPorts(List<Member> chosen) {
    List<Member> base = txn.base().members();
    if (chosen.size() != base.size()) {
      return "ports were chosen for " + chosen.size() + " members, not " + base.size();
    }
    Set<String> used = new HashSet<>();
    allOldMembers().forEach(m -> used.add(m.server().getHostname() + ":" + m.port()));
    for (int i = 0; i < chosen.size(); i++) {
      Member m = chosen.get(i);
      if (!m.isOn(base.get(i).server())) {
        return "a merged member was placed on " + m.server() + ", not with the base's on " + base.get(i).server();
      }
      if (!used.add(m.server().getHostname() + ":" + m.port())) {
        return "replication port " + m.port() + " on " + m.server().getHostname() + " is taken";
      }
    }
    return null;
  }

  @Override
  void onFailed(Stage stage, String reason) {
    switch (stage) {
      // Nothing recorded yet: nothing to undo (ports a server handed out are free again once unused).
      case CHOOSE_PORTS -> finish(new Outcome(Kind.ROLLED_BACK, reason));
      // The record may or may not exist: make sure it does not.
      case RECORD_STARTED -> {
        ending = new Outcome(Kind.ROLLED_BACK, reason);
        goTo(Stage.DELETE);
      }
      // Before the point of no return (a failed FILLED record may have been written: the rollback record
      // overwrites it before anything is undone).
      case MARK_LOWER, MARK_UPPER, SEAL, CLOSE, FILL, RECORD_FILLED -> rollBack(reason);
      // After it, and while rolling back: the same action again (the same part).
      default -> goTo(stage);
    }
  }
}
