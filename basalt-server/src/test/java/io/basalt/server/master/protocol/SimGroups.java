package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * One replicated region in memory for the member-change tests: region servers (up or down) each with at
 * most one copy of the region (a log prefix: how many writes it holds) and a member that runs or not; the
 * JE replica group (its member names and its primary); the catalog's member list; the transaction store.
 *
 * <p>Writes are acknowledged as JE does, and adversarially: the primary plus just enough running members
 * for a majority of the group, taken in {@link #ackOrder} (the member about to be removed first), so the
 * others lag. A member catches up only by acknowledging (JE acknowledges in log order), by joining
 * ({@link Action.JoinMember} waits for it) or by taking over the primary role. An election needs a running
 * majority of the group and picks the member holding the most. Invariants, after every effect: every
 * majority of the group includes a member holding every acknowledged write (so any election finds it), the
 * primary holds all
 * of them, the copies the catalog lists that the group counts (live, with their data, a new member only
 * once it caught up) are never fewer than at the start, and no directory of a listed member is dropped.
 */
final class SimGroups implements SimWorld {
  static final RegionInfo REGION = SimCluster.region("", "", 1);

  /** One region server and its copy of the region. */
  static final class Node {
    final ServerName name;
    boolean up = true;
    /** Writes its directory holds, or -1 for no directory. */
    long held = -1;
    /** Whether its copy counts: an original member's, or a new one's once it caught up with the primary. */
    boolean caughtUp;
    boolean running;

    Node(ServerName name) {
      this.name = name;
    }

    String nodeName() {
      return Member.nodeName(name);
    }
  }

  final Map<ServerName, Node> nodes = new LinkedHashMap<>();
  final Map<String, byte[]> txns = new TreeMap<>();
  /** The region's members as the catalog lists them. */
  List<Member> catalog = new ArrayList<>();
  /** The JE group's members, by node name. */
  final TreeSet<String> group = new TreeSet<>();
  String primary;
  long acked;
  /** Servers whose members acknowledge first (the rest lag). */
  final List<ServerName> ackOrder = new ArrayList<>();
  private int initialCopies;

  static ServerName server(int i) {
    return ServerName.valueOf("rs" + i, 16020, 1L);
  }

  static Member member(int i) {
    return new Member(server(i), 16500 + i);
  }

  /** {@code servers} region servers, members on the first {@code members} of them (rs0 primary). */
  SimGroups(int servers, int members) {
    for (int i = 0; i < servers; i++) {
      nodes.put(server(i), new Node(server(i)));
    }
    for (int i = 0; i < members; i++) {
      Node n = nodes.get(server(i));
      n.held = 0;
      n.caughtUp = true;
      n.running = true;
      group.add(n.nodeName());
      catalog.add(member(i));
    }
    primary = nodes.get(server(0)).nodeName();
  }

  /** Writes some rows, then stops {@code server} (its copy keeps what it had), and fixes the starting count. */
  SimGroups started(int writes, ServerName down) {
    for (int i = 0; i < writes; i++) {
      write();
    }
    if (down != null) {
      Node n = nodes.get(down);
      n.up = false;
      n.running = false;
      if (n.nodeName().equals(primary)) {
        primary = null;
        elect();
      }
    }
    initialCopies = countedCopies();
    return this;
  }

  /** A removal without replacement: one copy fewer is the point, not a loss. */
  SimGroups shrinking() {
    initialCopies--;
    return this;
  }

  Node node(String nodeName) {
    return nodes.values().stream().filter(n -> n.nodeName().equals(nodeName)).findFirst().orElseThrow();
  }

  private Node primaryNode() {
    return primary == null ? null : node(primary);
  }

  private boolean held() {
    return !txns.isEmpty();
  }

  private boolean listed(ServerName s) {
    return catalog.stream().anyMatch(m -> m.isOn(s));
  }

  private static int majority(int n) {
    return n / 2 + 1;
  }

  /** Running members of the group, optionally only those that count as copies. */
  private List<Node> running(boolean caughtUpOnly) {
    return nodes.values().stream().filter(n -> n.up && n.running && group.contains(n.nodeName())
        && (!caughtUpOnly || n.caughtUp)).toList();
  }

  // ------------------------------------------------------------------ the group

  @Override
  public boolean write() {
    Node p = primaryNode();
    if (p == null) {
      return false;
    }
    List<Node> candidates = new ArrayList<>(running(true));
    candidates.remove(p);
    candidates.sort(Comparator.<Node>comparingInt(n -> ackOrder.contains(n.name) ? ackOrder.indexOf(n.name) : 99)
        .thenComparing(n -> n.nodeName()));
    int needed = majority(group.size()) - 1;
    if (candidates.size() < needed) {
      return false;
    }
    acked++;
    p.held = acked;
    candidates.subList(0, needed).forEach(n -> n.held = acked);
    return true;
  }

  /** Without a running primary, the group elects the running member holding the most, given a running majority. */
  private void elect() {
    Node p = primaryNode();
    if (p != null && p.up && p.running && group.contains(p.nodeName())) {
      return;
    }
    primary = null;
    List<Node> voters = running(false);
    if (voters.size() < majority(group.size())) {
      return;
    }
    Node winner = voters.stream().filter(n -> n.caughtUp).max(Comparator.<Node>comparingLong(n -> n.held)
        .thenComparing(n -> n.nodeName(), Comparator.reverseOrder())).orElse(null);
    if (winner != null) {
      primary = winner.nodeName();
      if (winner.held < acked) {
        throw new AssertionError("elected " + primary + " holding " + winner.held + " of " + acked
            + " acknowledged writes: acknowledged writes lost");
      }
    }
  }

  private void stopMember(Node n) {
    n.running = false;
    if (n.nodeName().equals(primary)) {
      primary = null;
    }
    elect();
  }

  /** A member the master opens: it rejoins its group (lagging until it acknowledges). */
  private void openMember(Node n) {
    if (n.held < 0) {
      n.held = 0; // a wiped member joins empty; not counted until it caught up
      n.caughtUp = false;
    }
    n.running = true;
    group.add(n.nodeName());
    elect();
  }

  // ------------------------------------------------------------------ faults and the master

  @Override
  public void crash(ServerName name) {
    Node n = nodes.get(name);
    stopMember(n);
    serverUp(n);
  }

  /** A server registers (after a crash, or back from being down): stray copies dropped, members opened. */
  void serverUp(Node n) {
    n.up = true;
    if (!listed(n.name) && !held() && n.held >= 0) {
      n.held = -1;
      n.caughtUp = false;
      n.running = false;
    }
    assign(n);
  }

  /** As the master's assignment: listed members are opened, except those a change in flight owns. */
  private void assign(Node n) {
    if (n.up && listed(n.name) && !ownedByChange(n.name) && !n.running && n.held >= 0) {
      openMember(n);
    }
  }

  private boolean ownedByChange(ServerName s) {
    for (byte[] record : txns.values()) {
      try {
        if (((MemberTxn) Txn.parse(record)).ownMembers().stream().anyMatch(m -> m.isOn(s))) {
          return true;
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return false;
  }

  @Override
  public void newMaster() {
    nodes.values().forEach(this::assign);
  }

  @Override
  public Map<String, byte[]> txns() {
    return txns;
  }

  // ------------------------------------------------------------------ actions

  @Override
  public SimCluster.Execution execute(Action action) {
    SimCluster.Execution x = new SimCluster.Execution();
    if (action instanceof Action.PersistTxn a) {
      return x.then(() -> txns.put(a.txn().id(), a.txn().toBytes()));
    }
    if (action instanceof Action.DeleteTxn a) {
      return x.then(() -> txns.remove(a.id()));
    }
    if (action instanceof Action.PublishMembers a) {
      return x.then(() -> catalog = a.members());
    }
    if (action instanceof Action.TransferPrimary a) {
      return transfer(a);
    }
    if (action instanceof Action.DeleteMember a) {
      return delete(a);
    }
    Node n = nodes.get(action.site().regionServer());
    if (action instanceof Action.CloseMember) {
      return n.up ? x.then(() -> stopMember(n)) : x; // a server that is down runs nothing: done
    }
    if (action instanceof Action.DropMemberFiles) {
      if (!n.up) {
        return x; // dropped when it returns
      }
      return x.then(() -> {
        if (listed(n.name)) {
          throw new AssertionError("the directory of " + n.name + " is dropped while the catalog lists it");
        }
        stopMember(n);
        n.held = -1;
        n.caughtUp = false;
      });
    }
    if (action instanceof Action.JoinMember) {
      if (!n.up) {
        return SimCluster.Execution.fails(n.name + " is not online");
      }
      return join(n, x);
    }
    throw new AssertionError("unknown action " + action);
  }

  private SimCluster.Execution join(Node n, SimCluster.Execution x) {
    boolean member = group.contains(n.nodeName());
    if (!member && (primary == null || running(true).size() < majority(group.size() + 1))) {
      return SimCluster.Execution.fails("too few members up to record " + n.nodeName() + " in the group");
    }
    x.then(() -> {
      if (!n.running) {
        openMember(n);
      }
    }).then(() -> {
      Node p = primaryNode();
      if (p != null && n.running) {
        n.held = p.held;
        n.caughtUp = true;
      }
    });
    x.lateFailure = () -> n.caughtUp && n.running ? null : n.nodeName() + " has not caught up with a primary";
    return x;
  }

  private SimCluster.Execution transfer(Action.TransferPrimary a) {
    Node p = primaryNode();
    if (p == null) {
      return SimCluster.Execution.fails("no primary now");
    }
    if (a.awayFrom() != null && !p.name.getAddress().equals(a.awayFrom().getAddress())) {
      return new SimCluster.Execution();
    }
    Optional<Node> target = a.to() != null ? Optional.of(nodes.get(a.to()))
        : running(true).stream().filter(n -> n != p).findFirst();
    if (target.isEmpty() || !target.get().up || !target.get().running || !group.contains(target.get().nodeName())) {
      return SimCluster.Execution.fails("no running member to hand the primary to");
    }
    Node t = target.get();
    return new SimCluster.Execution().then(() -> {
      Node now = primaryNode();
      if (now != null && t.running) {
        t.held = now.held;
        t.caughtUp = true;
        primary = t.nodeName();
      }
    });
  }

  private SimCluster.Execution delete(Action.DeleteMember a) {
    boolean via = a.via().stream().map(nodes::get).anyMatch(n -> n.up && n.running);
    Node gone = nodes.get(a.gone().server());
    if (!via) {
      return SimCluster.Execution.fails("no member of " + a.via() + " runs");
    }
    if (!group.contains(gone.nodeName())) {
      return new SimCluster.Execution();
    }
    if (primary == null || gone.running || gone.nodeName().equals(primary)) {
      return SimCluster.Execution.fails("cannot delete " + gone.nodeName() + " now");
    }
    if (running(true).size() < majority(group.size() - 1)) {
      return SimCluster.Execution.fails("too few members up to record the deletion");
    }
    return new SimCluster.Execution().then(() -> {
      group.remove(gone.nodeName());
      elect();
    });
  }

  // ------------------------------------------------------------------ invariants

  /** Listed copies that the group counts: live, in the group, with a directory, caught up. */
  int countedCopies() {
    return (int) catalog.stream().map(m -> nodes.get(m.server()))
        .filter(n -> n.up && n.held >= 0 && n.caughtUp && group.contains(n.nodeName())).count();
  }

  @Override
  public void checkInvariants() {
    // Every majority of the group (any election's voters) must include a member holding it.
    long holding = nodes.values().stream().filter(n -> group.contains(n.nodeName()) && n.held >= acked).count();
    if (acked > 0 && holding <= group.size() - majority(group.size())) {
      throw new AssertionError("the last acknowledged write is held by " + holding + " of the group " + group
          + ": an election could lose it");
    }
    Node p = primaryNode();
    if (p != null && p.held < acked) {
      throw new AssertionError("primary " + primary + " lacks acknowledged writes");
    }
    if (countedCopies() < initialCopies) {
      throw new AssertionError(countedCopies() + " copies counted, fewer than the " + initialCopies + " at the start");
    }
  }

  /** The end state: catalog and group agree, every listed member on a live server runs with its data. */
  void checkEnd() {
    if (!txns.isEmpty()) {
      throw new AssertionError("transactions left: " + txns.keySet());
    }
    TreeSet<String> listed = new TreeSet<>();
    catalog.forEach(m -> listed.add(m.nodeName()));
    if (!listed.equals(group)) {
      throw new AssertionError("the catalog lists " + listed + ", the group has " + group);
    }
    for (Node n : nodes.values()) {
      if (n.up && listed(n.name) && (!n.running || n.held < 0)) {
        throw new AssertionError(n.name + " is listed but its member does not run");
      }
      if (n.up && !listed(n.name) && n.held >= 0) {
        throw new AssertionError(n.name + " keeps a copy the catalog does not list");
      }
    }
    checkInvariants();
  }
}
