package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.SnapshotRecord;
import io.basalt.server.master.protocol.Outcome.Kind;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * Cloning a snapshot into a new table, or restoring a disabled table from one, as a pure state machine. Each new
 * region is a clone of the snapshot's region on the server holding its files (segments hard-linked, the tail
 * copied), as a split clones its parent: milliseconds, whatever the size.
 * <pre>
 *   PersistTxn(STARTED)                                  failure: DeleteTxn, ROLLED_BACK
 *   CreateClonedTable                                    a clone only; failure: roll back
 *   InParallel(CloneSnapshotRegion per region)           failure: roll back
 *   InParallel(FoundCloneGroup per region)               replicated only: a new group on each founder; failure:
 *                                                        roll back
 *   PersistTxn(CLONED)                                   failure: roll back; done: POINT OF NO RETURN
 *   PublishClone                                         from here on a failure repeats the action
 *   InParallel(OpenRegion per region)                    a clone only (a restored table stays disabled, as in HBase)
 *   InParallel(DropRegionFiles per replaced region)      a restore only
 *   DeleteTxn                                            CLONED | RESTORED
 * replicated (the groups in the record): after PublishClone (regions CLOSED, table DISABLED) instead of OpenRegion:
 *   InParallel(OpenDaughterMember per founder)           each founder alone in its group: its primary
 *   InParallel(JoinMember per other member)              joined empty, filled by copy, caught up with the founder;
 *                                                        failure: the founders' opens again, then this (a founder
 *                                                        whose server restarted is closed, and nothing else opens
 *                                                        it while the table is disabled)
 *   EnableClonedTable                                    a clone: regions OPEN, table ENABLED, once every group
 *                                                        has its members (a majority and more)
 *   InParallel(OpenDaughterMember per member)            a clone: every member open (one whose server restarted
 *                                                        since it joined, while the table was disabled, reopens)
 *   InParallel(CloseMember per member)                   a restore: the table stays disabled, its copies made
 * roll back:
 *   PersistTxn(ROLLING_BACK, reason), InParallel(DropRegionFiles per new region),
 *   RemoveClonedTable (a clone only), DeleteTxn                                       ROLLED_BACK
 * </pre>
 * A restore's old regions stay in the catalog and on disk until the new ones are published, so a restore undone
 * at any step leaves the table as it was. A replicated region's clone founds a NEW JE group (its own name, a new
 * UUID), so it never meets the group the snapshot was taken from; before the point of no return only the founders
 * have files, which the rollback drops. Recovery ({@link #recover}): STARTED and ROLLING_BACK roll back, CLONED
 * finishes.
 *
 * <p>Precondition of {@link #begin}: for a clone the table does not exist; for a restore it exists, is disabled,
 * and {@code replaced} are its regions; no other transaction holds the table or the snapshot's regions' files.
 */
public final class CloneSnapshotProtocol extends StepMachine<CloneSnapshotProtocol.Stage> implements Protocol {
  enum Stage { RECORD_STARTED, CREATE_TABLE, CLONE, FOUND, RECORD_CLONED, PUBLISH, OPEN, OPEN_FOUNDERS,
    JOIN, ENABLE, OPEN_MEMBERS, CLOSE_MEMBERS, DROP_REPLACED, RECORD_ROLLBACK, DROP_CLONES, REMOVE_TABLE, DELETE }

  private CloneTxn txn;
  private Outcome ending;

  private CloneSnapshotProtocol(CloneTxn txn, Stage first) {
    super(first);
    this.txn = txn;
  }

  /** Clones {@code snapshot} into the new table {@code table} (the snapshot's descriptor, renamed). */
  public static CloneSnapshotProtocol clone(String id, SnapshotRecord snapshot, TableDescriptor table,
      long newRegionId) {
    return clone(id, snapshot, table, newRegionId, List.of());
  }

  /**
   * As {@link #clone(String, SnapshotRecord, TableDescriptor, long)}, each new region a replica group of {@code
   * groups}' members (in the order of the snapshot's regions, each founder on the server holding that region's
   * files); no groups: unreplicated.
   */
  public static CloneSnapshotProtocol clone(String id, SnapshotRecord snapshot, TableDescriptor table,
      long newRegionId, List<List<Member>> groups) {
    return start(new CloneTxn(id, CloneTxn.Phase.STARTED, false, snapshot.name(), table, newRegionId,
        snapshot.parts(), List.of(), groups, ""));
  }

  /** Restores the disabled table of {@code snapshot} from it, replacing the regions it has now. */
  public static CloneSnapshotProtocol restore(String id, SnapshotRecord snapshot, List<SnapshotRecord.Part> replaced,
      long newRegionId) {
    return restore(id, snapshot, replaced, newRegionId, List.of());
  }

  /**
   * As {@link #restore(String, SnapshotRecord, List, long)} with replica groups (see {@link #clone(String,
   * SnapshotRecord, TableDescriptor, long, List)}); {@code replaced} names a replicated old region once per member.
   */
  public static CloneSnapshotProtocol restore(String id, SnapshotRecord snapshot, List<SnapshotRecord.Part> replaced,
      long newRegionId, List<List<Member>> groups) {
    return start(new CloneTxn(id, CloneTxn.Phase.STARTED, true, snapshot.name(), snapshot.table(), newRegionId,
        snapshot.parts(), replaced, groups, ""));
  }

  /** The regions a clone of {@code snapshot} into {@code table} makes, in the order of the snapshot's regions. */
  public static List<RegionInfo> targetsOf(SnapshotRecord snapshot, TableDescriptor table, long newRegionId) {
    return CloneTxn.targets(snapshot.parts(), table, newRegionId);
  }

  private static CloneSnapshotProtocol start(CloneTxn txn) {
    for (SnapshotRecord.Part r : txn.replaced()) {
      if (r.region().getRegionId() >= txn.newRegionId()) {
        throw new IllegalArgumentException("new region id " + txn.newRegionId() + " is not after "
            + r.region().getRegionNameAsString());
      }
    }
    CloneSnapshotProtocol p = new CloneSnapshotProtocol(txn, Stage.RECORD_STARTED);
    if (txn.parts().isEmpty()) {
      p.finish(new Outcome(Kind.REFUSED, "snapshot " + txn.snapshot() + " has no region"));
      return p;
    }
    p.ending = p.doneOutcome();
    return p;
  }

  public static CloneSnapshotProtocol recover(CloneTxn txn) {
    CloneSnapshotProtocol p;
    switch (txn.phase()) {
      case STARTED -> {
        p = new CloneSnapshotProtocol(txn, Stage.RECORD_ROLLBACK);
        p.ending = new Outcome(Kind.ROLLED_BACK, "a new master found the " + (txn.restore() ? "restore" : "clone")
            + " of " + txn.snapshot() + " before its regions were all cloned");
      }
      case ROLLING_BACK -> {
        p = new CloneSnapshotProtocol(txn, Stage.DROP_CLONES);
        p.ending = new Outcome(Kind.ROLLED_BACK, txn.reason());
      }
      case CLONED -> {
        p = new CloneSnapshotProtocol(txn, Stage.PUBLISH);
        p.ending = p.doneOutcome();
      }
      default -> throw new IllegalStateException("phase " + txn.phase());
    }
    return p;
  }

  @Override
  public String id() {
    return txn.id();
  }

  public CloneTxn txn() {
    return txn;
  }

  @Override
  public boolean committed() {
    return txn.phase() == CloneTxn.Phase.CLONED;
  }

  private Outcome doneOutcome() {
    return txn.restore()
        ? new Outcome(Kind.RESTORED, txn.table().getTableName() + " restored from snapshot " + txn.snapshot())
        : new Outcome(Kind.CLONED, "snapshot " + txn.snapshot() + " cloned into " + txn.table().getTableName());
  }

  private void rollBack(String reason) {
    ending = new Outcome(Kind.ROLLED_BACK, reason);
    goTo(Stage.RECORD_ROLLBACK);
  }

  private List<ServerName> servers() {
    return txn.parts().stream().map(SnapshotRecord.Part::server).toList();
  }

  @Override
  Action actionFor(Stage stage) {
    List<RegionInfo> targets = txn.targets();
    return switch (stage) {
      case RECORD_STARTED -> new Action.PersistTxn(txn);
      case CREATE_TABLE -> new SnapshotActions.CreateClonedTable(txn.table());
      case CLONE -> {
        List<Action> parts = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
          SnapshotRecord.Part p = txn.parts().get(i);
          parts.add(new SnapshotActions.CloneSnapshotRegion(p.server(), txn.snapshot(), p.region(), targets.get(i)));
        }
        yield new Action.InParallel(parts);
      }
      case FOUND -> {
        List<Action> parts = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
          parts.add(new SnapshotActions.FoundCloneGroup(targets.get(i), groupName(targets.get(i)), txn.groups().get(i)));
        }
        yield new Action.InParallel(parts);
      }
      case RECORD_CLONED -> new Action.PersistTxn(txn.at(CloneTxn.Phase.CLONED));
      case PUBLISH -> new SnapshotActions.PublishClone(txn.table(), targets, servers(),
          txn.replaced().stream().map(SnapshotRecord.Part::region).distinct().toList(),
          !txn.restore() && !txn.replicated(), txn.groups());
      case OPEN -> new Action.InParallel(perRegion(targets, servers(), Action.OpenRegion::new));
      case OPEN_FOUNDERS -> {
        List<Action> parts = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
          List<Member> group = txn.groups().get(i);
          parts.add(new Action.OpenDaughterMember(group.get(0).server(), targets.get(i), groupName(targets.get(i)),
              group));
        }
        yield new Action.InParallel(parts);
      }
      case JOIN -> {
        List<Action> parts = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
          List<Member> group = txn.groups().get(i);
          for (Member m : group.subList(1, group.size())) {
            parts.add(new Action.JoinMember(m.server(), targets.get(i), group));
          }
        }
        yield new Action.InParallel(parts);
      }
      case ENABLE -> new SnapshotActions.EnableClonedTable(txn.table().getTableName());
      case OPEN_MEMBERS -> {
        List<Action> parts = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
          for (Member m : txn.groups().get(i)) {
            parts.add(new Action.OpenDaughterMember(m.server(), targets.get(i), groupName(targets.get(i)),
                txn.groups().get(i)));
          }
        }
        yield new Action.InParallel(parts);
      }
      case CLOSE_MEMBERS -> {
        List<Action> parts = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
          for (Member m : txn.groups().get(i)) {
            parts.add(new Action.CloseMember(m.server(), targets.get(i)));
          }
        }
        yield new Action.InParallel(parts);
      }
      case DROP_REPLACED -> new Action.InParallel(perRegion(txn.replaced().stream().map(SnapshotRecord.Part::region)
          .toList(), txn.replaced().stream().map(SnapshotRecord.Part::server).toList(), Action.DropRegionFiles::new));
      case RECORD_ROLLBACK -> new Action.PersistTxn(txn.rollingBack(ending.reason()));
      case DROP_CLONES -> new Action.InParallel(perRegion(targets, servers(), Action.DropRegionFiles::new));
      case REMOVE_TABLE -> new SnapshotActions.RemoveClonedTable(txn.table().getTableName());
      case DELETE -> new Action.DeleteTxn(txn.id());
    };
  }

  private static List<Action> perRegion(List<RegionInfo> regions, List<ServerName> servers,
      java.util.function.BiFunction<ServerName, RegionInfo, Action> make) {
    List<Action> out = new ArrayList<>();
    for (int i = 0; i < regions.size(); i++) {
      out.add(make.apply(servers.get(i), regions.get(i)));
    }
    return out;
  }

  /**
   * A new region's JE group is named after it, as every region's group is (a split's daughters excepted), so it
   * differs from the snapshot's source group by name as well as by UUID.
   */
  private static String groupName(RegionInfo target) {
    return target.getEncodedName();
  }

  /** Whether a replicated clone has members besides its founders (a group placed on one server has none). */
  private boolean hasJoiners() {
    return txn.groups().stream().anyMatch(g -> g.size() > 1);
  }

  @Override
  boolean accepts(Stage stage, Result result) {
    return switch (stage) {
      case CLONE, FOUND, OPEN, OPEN_FOUNDERS, JOIN, OPEN_MEMBERS, CLOSE_MEMBERS, DROP_REPLACED, DROP_CLONES ->
          result instanceof Result.Each;
      default -> result instanceof Result.Done;
    };
  }

  @Override
  void onCompleted(Stage stage, Result result) {
    switch (stage) {
      case RECORD_STARTED -> goTo(txn.restore() ? Stage.CLONE : Stage.CREATE_TABLE);
      case CREATE_TABLE -> goTo(Stage.CLONE);
      case CLONE -> goTo(txn.replicated() ? Stage.FOUND : Stage.RECORD_CLONED);
      case FOUND -> goTo(Stage.RECORD_CLONED);
      case RECORD_CLONED -> {
        txn = txn.at(CloneTxn.Phase.CLONED);
        ending = doneOutcome();
        goTo(Stage.PUBLISH);
      }
      case PUBLISH -> goTo(txn.replicated() ? Stage.OPEN_FOUNDERS : txn.restore() ? afterOpen() : Stage.OPEN);
      case OPEN -> goTo(afterOpen());
      case OPEN_FOUNDERS -> goTo(hasJoiners() ? Stage.JOIN : afterJoin());
      case JOIN -> goTo(afterJoin());
      case ENABLE -> goTo(Stage.OPEN_MEMBERS);
      case OPEN_MEMBERS, CLOSE_MEMBERS -> goTo(afterOpen());
      case DROP_REPLACED -> goTo(Stage.DELETE);
      case RECORD_ROLLBACK -> {
        txn = txn.rollingBack(ending.reason());
        goTo(Stage.DROP_CLONES);
      }
      case DROP_CLONES -> goTo(txn.restore() ? Stage.DELETE : Stage.REMOVE_TABLE);
      case REMOVE_TABLE -> goTo(Stage.DELETE);
      case DELETE -> finish(ending);
    }
  }

  private Stage afterJoin() {
    return txn.restore() ? Stage.CLOSE_MEMBERS : Stage.ENABLE;
  }

  private Stage afterOpen() {
    return txn.replaced().isEmpty() ? Stage.DELETE : Stage.DROP_REPLACED;
  }

  @Override
  void onFailed(Stage stage, String reason) {
    switch (stage) {
      case RECORD_STARTED -> {
        ending = new Outcome(Kind.ROLLED_BACK, reason);
        goTo(Stage.DELETE);
      }
      case CREATE_TABLE, CLONE, FOUND, RECORD_CLONED -> rollBack(reason);
      case JOIN -> goTo(Stage.OPEN_FOUNDERS);
      default -> goTo(stage);
    }
  }
}
