package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import io.basalt.server.master.protocol.SimCluster.Execution;
import io.basalt.server.master.protocol.SimCluster.Write;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link SimSplitGroups} with the replicated merge's own actions: a member closes at its position (cloning its log
 * into the merged region's directory when it is the base's), the founder refounds the merged group and appends the
 * other region's closed log to its clone (the copy through the replicated environment), the catalog swaps the two
 * regions for the merged one, and a rollback drops the merged directories and serves the old members again. A merged
 * region's members may be open before it is published while its merge is in flight: no client knows of it.
 */
final class SimMergeGroups extends SimSplitGroups {
  SimMergeGroups(int serverCount) {
    super(serverCount);
  }

  @Override
  boolean mayServeUnpublished(String name) {
    for (byte[] record : txns.values()) {
      try {
        if (Txn.parse(record) instanceof GroupMergeTxn t && t.merged().getEncodedName().equals(name)) {
          return true;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return false;
  }

  @Override
  public Execution execute(Action action) {
    Execution x = new Execution();
    if (action instanceof GroupMergeActions.ChooseMergedPorts a) {
      List<Member> chosen = new ArrayList<>();
      a.members().forEach(m -> chosen.add(new Member(m.server(), nextPort++)));
      x.result = () -> new Result.MergedMembers(chosen);
      return x;
    }
    if (action instanceof GroupMergeActions.PublishGroupMerge a) {
      return x.then(() -> {
        catalog.remove(a.lower().getEncodedName());
        catalog.remove(a.upper().getEncodedName());
        catalog.put(a.merged().getEncodedName(), new Entry(a.merged(), "OPEN", a.members(),
            a.members().get(0).server()));
      });
    }
    if (!(action instanceof Action.OfGroupMerge)) {
      return super.execute(action);
    }
    Server s = servers.get(action.site().regionServer());
    if (action instanceof GroupMergeActions.CloseMemberForMerge a) {
      String name = a.region().getEncodedName();
      if (!s.open.contains(name)) {
        return Execution.fails("the member of " + name + " on " + s.name + " is not open: its position is unknown");
      }
      x.result = () -> new Result.LogPosition(s.dirs.get(name).size());
      x.then(() -> {
        s.open.remove(name);
        s.sealed.remove(name);
      });
      if (a.clones()) {
        x.then(() -> s.dirs.putIfAbsent(a.cloneInto().getEncodedName(), new ArrayList<>(s.dirs.get(name))));
      }
      return x;
    }
    if (action instanceof GroupMergeActions.FoundMergedGroup a) {
      String merged = a.merged().getEncodedName();
      String other = a.other().getEncodedName();
      if (s.founded.contains(merged)) {
        return x;
      }
      if (!s.dirs.containsKey(merged) || !s.dirs.containsKey(other)) {
        return Execution.fails("no clone of " + merged + " or no member of " + other + " on " + s.name);
      }
      if (s.open.contains(other)) {
        return Execution.fails("the member of " + other + " on " + s.name + " is still open");
      }
      // A repeat after a crash before the marker copies again: the same records, the same latest values.
      return x.then(() -> s.dirs.get(merged).addAll(s.dirs.get(other))).then(() -> s.founded.add(merged));
    }
    if (action instanceof GroupMergeActions.JoinMergedMember a) {
      String name = a.merged().getEncodedName();
      Server founder = servers.get(a.members().get(0).server());
      if (!s.dirs.containsKey(name)) {
        return Execution.fails("no clone of " + name + " on " + s.name);
      }
      // Checked as it runs: a founder reopened by an earlier part of the same InParallel counts.
      x.then(() -> {
        if (founder.open.contains(name) && founder.founded.contains(name) && !s.open.contains(name)) {
          openMember(s, name, a.members());
        }
      });
      x.lateFailure = () -> s.open.contains(name) && founder.open.contains(name)
          && s.dirs.get(name).size() >= founder.dirs.get(name).size() ? null
          : "the member of " + name + " on " + s.name + " has not caught up with its founder";
      return x;
    }
    if (action instanceof GroupMergeActions.RollBackGroupMerge a) {
      String name = a.region().getEncodedName();
      if (!s.dirs.containsKey(name)) {
        return Execution.fails("no directory for " + name);
      }
      return x.then(() -> drop(s, a.merged())).then(() -> {
        if (s.open.contains(name)) {
          s.sealed.remove(name);
        } else {
          openMember(s, name, a.members());
        }
      });
    }
    throw new AssertionError("unknown action " + action);
  }

  /** The latest value of {@code key} in a member's log, or null. */
  static String latest(List<Write> log, String key) {
    for (int i = log.size() - 1; i >= 0; i--) {
      if (log.get(i).key().equals(key)) {
        return log.get(i).value();
      }
    }
    return null;
  }
}
