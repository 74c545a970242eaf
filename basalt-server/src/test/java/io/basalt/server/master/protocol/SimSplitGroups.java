package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import io.basalt.server.master.protocol.SimCluster.Execution;
import io.basalt.server.master.protocol.SimCluster.Write;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A cluster in memory whose regions are replica groups, for the replicated split's tests. Each member is a
 * directory (an append-only log of writes) on its server, open or closed; a group's primary takes a write
 * only while a majority of its members is open, and every open member appends it (closed ones miss it and
 * catch up from an open one when they reopen). A sealed primary takes no writes; a daughter's member can
 * join its group only once its founder refounded it. A region server crash closes its members and lifts
 * seals (they live in memory) but keeps directories and founding markers; the master then reopens the
 * members of regions the catalog says are OPEN.
 */
class SimSplitGroups implements SimWorld {
  /** One catalog row: the region, its state, its members, and the server of the member its group elected. */
  record Entry(RegionInfo region, String state, List<Member> members, ServerName primary) {
    Entry withState(String s) {
      return new Entry(region, s, members, primary);
    }
  }

  static final class Server {
    final ServerName name;
    final Map<String, List<Write>> dirs = new TreeMap<>();
    final Set<String> open = new HashSet<>();
    final Set<String> sealed = new HashSet<>();
    /** Daughter directories whose group was refounded (the marker file). */
    final Set<String> founded = new HashSet<>();

    Server(ServerName name) {
      this.name = name;
    }
  }

  final Map<ServerName, Server> servers = new LinkedHashMap<>();
  final Map<String, Entry> catalog = new TreeMap<>();
  final Map<String, byte[]> txns = new TreeMap<>();
  final Map<String, String> acked = new TreeMap<>();
  final List<String> keys = new ArrayList<>();
  private int writes;
  int nextPort = 17000;

  SimSplitGroups(int serverCount) {
    for (int i = 0; i < serverCount; i++) {
      servers.put(SimCluster.server(i), new Server(SimCluster.server(i)));
    }
    for (int i = 0; i < 20; i++) {
      keys.add(String.format("k%02d", i * 4));
    }
  }

  /** A replicated region, OPEN, with a member (empty log) on each given server at ports 16500, 16501... */
  void place(RegionInfo region, List<ServerName> on) {
    List<Member> members = new ArrayList<>();
    for (ServerName s : on) {
      members.add(new Member(s, 16500 + catalog.size()));
      servers.get(s).dirs.put(region.getEncodedName(), new ArrayList<>());
      servers.get(s).open.add(region.getEncodedName());
    }
    catalog.put(region.getEncodedName(), new Entry(region, "OPEN", members, on.get(0)));
  }

  Entry entry(RegionInfo region) {
    return catalog.get(region.getEncodedName());
  }

  // ------------------------------------------------------------------ clients

  /** The catalog row serving {@code key}: not a retired parent, and containing it. */
  Optional<Entry> route(String key) {
    for (Entry e : catalog.values()) {
      if (!"SPLIT".equals(e.state()) && e.region().containsRow(Bytes.toBytes(key))) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  @Override
  public boolean write() {
    String key = keys.get(writes % keys.size());
    String value = "v" + writes++;
    Optional<Entry> routed = route(key);
    if (routed.isEmpty()) {
      return false;
    }
    Entry e = routed.get();
    String name = e.region().getEncodedName();
    Server primary = servers.get(e.primary());
    if (!primary.open.contains(name) || primary.sealed.contains(name)) {
      return false;
    }
    List<Server> up = openMembers(e);
    if (up.size() <= e.members().size() / 2) {
      return false; // no majority to acknowledge
    }
    up.forEach(s -> s.dirs.get(name).add(new Write(key, value)));
    acked.put(key, value);
    return true;
  }

  private List<Server> openMembers(Entry e) {
    String name = e.region().getEncodedName();
    return e.members().stream().map(m -> servers.get(m.server())).filter(s -> s.open.contains(name)).toList();
  }

  // ------------------------------------------------------------------ crashes and assignment

  @Override
  public void crash(ServerName name) {
    Server s = servers.get(name);
    s.open.clear();
    s.sealed.clear();
    assign(name);
  }

  @Override
  public void newMaster() {
    servers.keySet().forEach(this::assign);
  }

  @Override
  public Map<String, byte[]> txns() {
    return txns;
  }

  private void assign(ServerName name) {
    for (Entry e : catalog.values()) {
      if ("OPEN".equals(e.state()) && e.members().stream().anyMatch(m -> m.isOn(name))
          && servers.get(name).dirs.containsKey(e.region().getEncodedName())) {
        openMember(servers.get(name), e.region().getEncodedName(), e.members());
      }
    }
  }

  /** Opens a member: it rejoins its group and catches up from the open member with the longest log. */
  void openMember(Server s, String region, List<Member> members) {
    List<Write> mine = s.dirs.get(region);
    for (Member m : members) {
      Server other = servers.get(m.server());
      List<Write> theirs = other.dirs.get(region);
      if (other != s && other.open.contains(region) && theirs != null && theirs.size() > mine.size()) {
        if (!theirs.subList(0, mine.size()).equals(mine)) {
          throw new AssertionError("member of " + region + " on " + s.name + " has a log that diverged from "
              + other.name + "'s");
        }
        mine.addAll(theirs.subList(mine.size(), theirs.size()));
      }
    }
    s.open.add(region);
    s.sealed.remove(region);
  }

  static void drop(Server s, RegionInfo r) {
    s.open.remove(r.getEncodedName());
    s.sealed.remove(r.getEncodedName());
    s.dirs.remove(r.getEncodedName());
    s.founded.remove(r.getEncodedName());
  }

  // ------------------------------------------------------------------ actions

  @Override
  public Execution execute(Action action) {
    Execution x = new Execution();
    if (action instanceof Action.InParallel p) {
      return inParallel(p);
    }
    if (action instanceof Action.PersistTxn a) {
      return x.then(() -> txns.put(a.txn().id(), a.txn().toBytes()));
    }
    if (action instanceof Action.DeleteTxn a) {
      return x.then(() -> txns.remove(a.id()));
    }
    if (action instanceof Action.SetRegionState a) {
      return x.then(() -> catalog.put(a.region().getEncodedName(), entry(a.region()).withState(a.state().name())));
    }
    if (action instanceof Action.ChooseDaughterPorts a) {
      List<Member> da = new ArrayList<>();
      List<Member> db = new ArrayList<>();
      for (Member m : a.members()) {
        da.add(new Member(m.server(), nextPort++));
        db.add(new Member(m.server(), nextPort++));
      }
      x.result = () -> new Result.DaughterMembers(da, db);
      return x;
    }
    if (action instanceof Action.PublishGroupSplit a) {
      return x.then(() -> {
        catalog.put(a.parent().getEncodedName(), entry(a.parent()).withState("SPLIT"));
        catalog.put(a.daughterA().getEncodedName(), new Entry(a.daughterA(), "OPEN", a.membersA(),
            a.membersA().get(0).server()));
        catalog.put(a.daughterB().getEncodedName(), new Entry(a.daughterB(), "OPEN", a.membersB(),
            a.membersB().get(0).server()));
      });
    }
    Server s = servers.get(action.site().regionServer());
    if (action instanceof Action.ChooseMidpoint a) {
      List<Write> log = s.dirs.get(a.parent().getEncodedName());
      if (log == null) {
        return Execution.fails("no directory for " + a.parent().getEncodedName());
      }
      List<String> rows = log.stream().map(Write::key).filter(k -> a.parent().containsRow(Bytes.toBytes(k)))
          .distinct().sorted().toList();
      x.result = () -> rows.size() < 2 ? new Result.NoSplitPoint(rows.size() + " rows")
          : new Result.SplitPoint(Bytes.toBytes(rows.get(rows.size() / 2)));
      return x;
    }
    if (action instanceof Action.SealGroup a) {
      String name = a.parent().getEncodedName();
      Entry e = entry(a.parent());
      if (!s.open.contains(name) || !e.primary().equals(s.name)) {
        return Execution.fails("the member on " + s.name + " is not the open primary");
      }
      if (openMembers(e).size() < e.members().size()) {
        return Execution.fails("not every member acknowledged the barrier");
      }
      x.result = () -> new Result.LogPosition(s.dirs.get(name).size());
      return x.then(() -> s.sealed.add(name));
    }
    if (action instanceof Action.CloseAndCloneMember a) {
      String name = a.parent().getEncodedName();
      if (!s.open.contains(name)) {
        return Execution.fails("the member of " + name + " on " + s.name + " is not open: its position is unknown");
      }
      x.result = () -> new Result.LogPosition(s.dirs.get(name).size());
      return x.then(() -> {
        s.open.remove(name);
        s.sealed.remove(name); // a seal lives in the open member
      }).then(() -> s.dirs.put(a.daughterA().getEncodedName(), new ArrayList<>(s.dirs.get(name))))
          .then(() -> s.dirs.put(a.daughterB().getEncodedName(), new ArrayList<>(s.dirs.get(name))));
    }
    if (action instanceof Action.FoundDaughterGroup a) {
      String name = a.daughter().getEncodedName();
      if (!s.dirs.containsKey(name)) {
        return Execution.fails("no clone of " + name + " on " + s.name);
      }
      return x.then(() -> s.founded.add(name));
    }
    if (action instanceof Action.OpenDaughterMember a) {
      String name = a.daughter().getEncodedName();
      if (!s.dirs.containsKey(name)) {
        return Execution.fails("no clone of " + name + " on " + s.name);
      }
      if (!servers.get(a.members().get(0).server()).founded.contains(name)) {
        return Execution.fails("the group of " + name + " was not refounded: nothing to join");
      }
      if (s.open.contains(name)) {
        return x;
      }
      return x.then(() -> openMember(s, name, a.members()));
    }
    if (action instanceof Action.DropRegionFiles a) {
      return x.then(() -> drop(s, a.region()));
    }
    if (action instanceof Action.RollBackGroupSplit a) {
      String name = a.parent().getEncodedName();
      if (!s.dirs.containsKey(name)) {
        return Execution.fails("no directory for " + name);
      }
      return x.then(() -> drop(s, a.daughterA())).then(() -> drop(s, a.daughterB())).then(() -> {
        if (s.open.contains(name)) {
          s.sealed.remove(name);
        } else {
          openMember(s, name, a.members());
        }
      });
    }
    throw new AssertionError("unknown action " + action);
  }

  /**
   * The parts' effects one part after another (a crash between them leaves any prefix of parts done, as
   * parallel parts may); a part that fails does nothing and fails the whole, the others still run.
   */
  private Execution inParallel(Action.InParallel p) {
    Execution all = new Execution();
    List<Execution> parts = p.parts().stream().map(this::execute).toList();
    List<String> failures = new ArrayList<>();
    for (Execution part : parts) {
      if (part.failure != null) {
        failures.add(part.failure);
      } else {
        all.effects.addAll(part.effects);
      }
    }
    all.lateFailure = () -> {
      List<String> late = new ArrayList<>(failures);
      parts.stream().filter(e -> e.failure == null).map(e -> e.lateFailure.get()).filter(f -> f != null)
          .forEach(late::add);
      return late.isEmpty() ? null : String.join("; ", late);
    };
    all.result = () -> new Result.Each(parts.stream().map(e -> e.result.get()).toList());
    return all;
  }

  // ------------------------------------------------------------------ invariants

  @Override
  public void checkInvariants() {
    for (Server s : servers.values()) {
      for (String name : s.open) {
        Entry e = catalog.get(name);
        if (e == null && !mayServeUnpublished(name)) {
          throw new AssertionError(name + " is served on " + s.name + " but not published");
        }
        if (e == null) {
          continue;
        }
        if ("SPLIT".equals(e.state())) {
          throw new AssertionError("the retired parent " + name + " is still served on " + s.name);
        }
      }
    }
    List<Entry> writable = new ArrayList<>();
    for (Entry e : catalog.values()) {
      Server p = servers.get(e.primary());
      String name = e.region().getEncodedName();
      if (!"SPLIT".equals(e.state()) && p.open.contains(name) && !p.sealed.contains(name)) {
        for (Entry other : writable) {
          if (overlaps(other.region(), e.region())) {
            throw new AssertionError("two primaries take writes for the same keys: " + other + ", " + e);
          }
        }
        writable.add(e);
      }
      checkLogsAgree(e);
    }
    for (String key : keys) {
      List<Entry> routes = catalog.values().stream()
          .filter(e -> !"SPLIT".equals(e.state()) && e.region().containsRow(Bytes.toBytes(key))).toList();
      if (routes.size() != 1) {
        throw new AssertionError("the catalog routes " + key + " to " + routes.size() + " regions: " + routes);
      }
      String value = acked.get(key);
      if (value == null) {
        continue;
      }
      Entry e = routes.get(0);
      long holding = e.members().stream().map(m -> servers.get(m.server()).dirs.get(e.region().getEncodedName()))
          .filter(log -> log != null && value.equals(latest(log, key))).count();
      if (holding <= e.members().size() / 2) {
        throw new AssertionError("acknowledged " + key + "=" + value + " is held by " + holding + " of "
            + e.members().size() + " members of " + e.region().getRegionNameAsString());
      }
    }
  }

  /** Whether a region the catalog does not name may be open (a merged region being built: no client knows it). */
  boolean mayServeUnpublished(String name) {
    return false;
  }

  /** Members of one group never hold diverging logs: each is a prefix of the longest. */
  private void checkLogsAgree(Entry e) {
    List<Write> longest = List.of();
    for (Member m : e.members()) {
      List<Write> log = servers.get(m.server()).dirs.get(e.region().getEncodedName());
      if (log != null && log.size() > longest.size()) {
        longest = log;
      }
    }
    for (Member m : e.members()) {
      List<Write> log = servers.get(m.server()).dirs.get(e.region().getEncodedName());
      if (log != null && !longest.subList(0, log.size()).equals(log)) {
        throw new AssertionError("members of " + e.region().getRegionNameAsString() + " hold diverging logs");
      }
    }
  }

  /** Every key written once more through its routed primary, and the invariants after. */
  void checkAllServed() {
    for (int i = 0; i < keys.size(); i++) {
      if (!write()) {
        throw new AssertionError("a write to " + keys.get((writes - 1) % keys.size()) + " was refused at the end: "
            + route(keys.get((writes - 1) % keys.size())));
      }
    }
    checkInvariants();
  }

  private static String latest(List<Write> log, String key) {
    for (int i = log.size() - 1; i >= 0; i--) {
      if (log.get(i).key().equals(key)) {
        return log.get(i).value();
      }
    }
    return null;
  }

  private static boolean overlaps(RegionInfo a, RegionInfo b) {
    boolean aBeforeB = a.getEndKey().length > 0 && Bytes.compareTo(a.getEndKey(), b.getStartKey()) <= 0;
    boolean bBeforeA = b.getEndKey().length > 0 && Bytes.compareTo(b.getEndKey(), a.getStartKey()) <= 0;
    return !aBeforeB && !bBeforeA;
  }

  /** Region directories on {@code server}, by encoded name. */
  Set<String> stored(ServerName server) {
    return new java.util.TreeSet<>(servers.get(server).dirs.keySet());
  }
}
