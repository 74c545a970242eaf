package io.basalt.server.master.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A cluster in memory for the protocol tests: region servers with region directories (an append-only
 * log of writes each), staging directories and open regions; a catalog; the transaction store; and
 * clients whose writes go where the catalog routes them. Actions run as short sequences of atomic
 * effects so that a crash can fall between any two of them. A region server crash loses its open regions
 * and pins but keeps its directories; the master then opens on it the regions the catalog says are OPEN
 * there, as assignment does.
 */
final class SimCluster implements SimWorld {
  static final TableName TABLE = TableName.valueOf("t");

  /** One catalog (RegionMap + meta) row. */
  record Entry(RegionInfo region, ServerName server, String state, RegionInfo splitA, RegionInfo splitB) {
    Entry(RegionInfo region, ServerName server, String state) {
      this(region, server, state, null, null);
    }
  }

  /** A write as the region logs it. */
  record Write(String key, String value) {}

  static final class Server {
    final ServerName name;
    /** The region's own directory: its log. */
    final Map<String, List<Write>> dirs = new TreeMap<>();
    /** What a move's target pulled before the close. */
    final Map<String, List<Write>> staging = new TreeMap<>();
    final Map<String, RegionInfo> open = new TreeMap<>();
    final TreeSet<String> pinned = new TreeSet<>();
    final Map<String, ServerName> movedTo = new HashMap<>();

    Server(ServerName name) {
      this.name = name;
    }
  }

  /** How an action goes: its effects one by one, then a result or a failure. */
  static final class Execution {
    final List<Runnable> effects = new ArrayList<>();
    java.util.function.Supplier<Result> result = () -> Result.DONE;
    String failure;
    /** A failure known only once the effects ran (null: none). */
    java.util.function.Supplier<String> lateFailure = () -> null;

    Execution then(Runnable effect) {
      effects.add(effect);
      return this;
    }

    static Execution fails(String why) {
      Execution e = new Execution();
      e.failure = why;
      return e;
    }
  }

  final Map<ServerName, Server> servers = new LinkedHashMap<>();
  final Map<String, Entry> catalog = new TreeMap<>();
  final Map<String, byte[]> txns = new TreeMap<>();
  final Map<String, String> acked = new TreeMap<>();
  private static final List<String> KEYS = new ArrayList<>();
  private static final List<byte[]> KEY_BYTES = new ArrayList<>();
  private static final List<ServerName> SERVERS = new ArrayList<>();

  static {
    for (int i = 0; i < 20; i++) {
      KEYS.add(String.format("k%02d", i * 4));
      KEY_BYTES.add(Bytes.toBytes(KEYS.get(i)));
    }
    for (int i = 0; i < 3; i++) {
      SERVERS.add(ServerName.valueOf("rs" + i, 16020, 1L));
    }
  }

  /** The keys clients write, in turn: k00, k04, ..., k76. */
  final List<String> keys = KEYS;
  private final List<byte[]> keyBytes = KEY_BYTES;
  private int writes;

  SimCluster(int serverCount) {
    for (ServerName s : SERVERS.subList(0, serverCount)) {
      servers.put(s, new Server(s));
    }
  }

  /** rs0, rs1, rs2. */
  static ServerName server(int i) {
    return SERVERS.get(i);
  }

  static RegionInfo region(String start, String end, long id) {
    return RegionInfoBuilder.newBuilder(TABLE).setStartKey(Bytes.toBytes(start)).setEndKey(Bytes.toBytes(end))
        .setRegionId(id).build();
  }

  /** Places a region, open, on a server with an empty directory. */
  void place(RegionInfo region, ServerName on) {
    catalog.put(region.getEncodedName(), new Entry(region, on, "OPEN"));
    Server s = servers.get(on);
    s.dirs.put(region.getEncodedName(), new ArrayList<>());
    s.open.put(region.getEncodedName(), region);
  }

  // ------------------------------------------------------------------ clients

  /** The catalog row serving {@code key}: the one that is not a retired parent and contains it. */
  Optional<Entry> route(String key) {
    byte[] row = Bytes.toBytes(key);
    for (Entry e : catalog.values()) {
      if (!"SPLIT".equals(e.state()) && e.region().containsRow(row)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  /** One client write to the next key in turn; acknowledged only if the routed server serves the region. */
  @Override
  public boolean write() {
    int k = writes % keys.size();
    String key = keys.get(k);
    String value = "v" + writes++;
    Entry e = null;
    for (Entry candidate : catalog.values()) {
      if (!"SPLIT".equals(candidate.state()) && candidate.region().containsRow(keyBytes.get(k))) {
        e = candidate;
        break;
      }
    }
    if (e == null || e.server() == null) {
      return false;
    }
    Server s = servers.get(e.server());
    String name = e.region().getEncodedName();
    RegionInfo served = s.open.get(name);
    if (served == null || !served.containsRow(keyBytes.get(k))) {
      return false;
    }
    s.dirs.get(name).add(new Write(key, value));
    acked.put(key, value);
    return true;
  }

  // ------------------------------------------------------------------ crashes and assignment

  @Override
  public Map<String, byte[]> txns() {
    return txns;
  }

  /** A new master assigns every server the regions the catalog says are OPEN on it. */
  @Override
  public void newMaster() {
    servers.keySet().forEach(this::assign);
  }

  /** The server dies and comes back: open regions, pins and moved-region notes are gone; files stay. */
  @Override
  public void crash(ServerName name) {
    Server s = servers.get(name);
    s.open.clear();
    s.pinned.clear();
    s.movedTo.clear();
    assign(name);
  }

  /** What the master does for a (returning) server: open the regions the catalog says are OPEN on it. */
  void assign(ServerName name) {
    for (Entry e : catalog.values()) {
      if (name.equals(e.server()) && "OPEN".equals(e.state())) {
        openRegion(servers.get(name), e.region());
      }
    }
  }

  private static void openRegion(Server s, RegionInfo r) {
    s.dirs.computeIfAbsent(r.getEncodedName(), n -> new ArrayList<>()); // a missing store is created empty
    s.open.put(r.getEncodedName(), r);
  }

  private static void drop(Server s, RegionInfo r) {
    s.open.remove(r.getEncodedName());
    s.dirs.remove(r.getEncodedName());
  }

  // ------------------------------------------------------------------ actions

  @Override
  public Execution execute(Action action) {
    Execution x = new Execution();
    if (action instanceof Action.PersistTxn a) {
      return x.then(() -> txns.put(a.txn().id(), a.txn().toBytes()));
    }
    if (action instanceof Action.DeleteTxn a) {
      return x.then(() -> txns.remove(a.id()));
    }
    if (action instanceof Action.SetRegionState a) {
      return x.then(() -> catalog.put(a.region().getEncodedName(), new Entry(a.region(), a.server(), a.state().name())));
    }
    if (action instanceof Action.PublishSplit a) {
      RegionInfo retired = RegionInfoBuilder.newBuilder(a.parent()).setOffline(true).setSplit(true).build();
      return x.then(() -> {
        catalog.put(a.parent().getEncodedName(), new Entry(retired, a.server(), "SPLIT", a.daughterA(), a.daughterB()));
        catalog.put(a.daughterA().getEncodedName(), new Entry(a.daughterA(), a.server(), "OPEN"));
        catalog.put(a.daughterB().getEncodedName(), new Entry(a.daughterB(), a.server(), "OPEN"));
      });
    }
    if (action instanceof Action.PublishMove a) {
      return x.then(() -> catalog.put(a.region().getEncodedName(), new Entry(a.region(), a.target(), "OPEN")));
    }
    if (action instanceof Action.PublishMerge a) {
      return x.then(() -> {
        catalog.remove(a.lower().getEncodedName());
        catalog.remove(a.upper().getEncodedName());
        catalog.put(a.merged().getEncodedName(), new Entry(a.merged(), a.server(), "OPEN"));
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
    if (action instanceof Action.CloseAndClone a) {
      String parent = a.parent().getEncodedName();
      if (!s.dirs.containsKey(parent)) {
        return Execution.fails("no directory for " + parent);
      }
      return x.then(() -> s.open.remove(parent))
          .then(() -> s.dirs.put(a.daughterA().getEncodedName(), new ArrayList<>(s.dirs.get(parent))))
          .then(() -> s.dirs.put(a.daughterB().getEncodedName(), new ArrayList<>(s.dirs.get(parent))));
    }
    if (action instanceof Action.OpenDaughters a) {
      return x.then(() -> openRegion(s, a.daughterA())).then(() -> openRegion(s, a.daughterB()));
    }
    if (action instanceof Action.OpenRegion a) {
      return x.then(() -> openRegion(s, a.region()));
    }
    if (action instanceof Action.DropRegionFiles a) {
      return x.then(() -> drop(s, a.region()));
    }
    if (action instanceof Action.RollBackSplit a) {
      if (!s.dirs.containsKey(a.parent().getEncodedName())) {
        return Execution.fails("no directory for " + a.parent().getEncodedName());
      }
      return x.then(() -> drop(s, a.daughterA())).then(() -> drop(s, a.daughterB()))
          .then(() -> openRegion(s, a.parent()));
    }
    if (action instanceof Action.CloseAndMerge a) {
      return closeAndMerge(s, a, x);
    }
    if (action instanceof Action.RollBackMerge a) {
      if (!s.dirs.containsKey(a.lower().getEncodedName()) || !s.dirs.containsKey(a.upper().getEncodedName())) {
        return Execution.fails("no directory for one of the regions to reopen");
      }
      return x.then(() -> drop(s, a.merged())).then(() -> openRegion(s, a.lower()))
          .then(() -> openRegion(s, a.upper()));
    }
    if (action instanceof Action.PreClose a) {
      String name = a.region().getEncodedName();
      if (!s.dirs.containsKey(name)) {
        return Execution.fails("no directory for " + name);
      }
      x.result = () -> manifest(s.dirs.get(name).size());
      return x.then(() -> s.pinned.add(name));
    }
    if (action instanceof Action.PreOpen a) {
      List<Write> from = servers.get(a.source()).dirs.get(a.region().getEncodedName());
      int n = count(a.manifest());
      if (from == null || from.size() < n) {
        return Execution.fails("the source cannot ship " + n + " writes");
      }
      return x.then(() -> s.staging.put(a.region().getEncodedName(), new ArrayList<>(from.subList(0, n))));
    }
    if (action instanceof Action.Close a) {
      String name = a.region().getEncodedName();
      if (!s.dirs.containsKey(name)) {
        return Execution.fails("no directory for " + name);
      }
      x.result = () -> manifest(s.dirs.get(name).size());
      return x.then(() -> s.open.remove(name));
    }
    if (action instanceof Action.Open a) {
      String name = a.region().getEncodedName();
      if (s.dirs.containsKey(name)) {
        return x.then(() -> openRegion(s, a.region()));
      }
      List<Write> staged = s.staging.getOrDefault(name, List.of());
      List<Write> from = servers.get(a.source()).dirs.get(name);
      int n = count(a.finalManifest());
      if (staged.size() < n && (from == null || from.size() < n)) {
        return Execution.fails("the source cannot ship " + n + " writes");
      }
      return x.then(() -> {
        List<Write> copy = new ArrayList<>(staged);
        copy.addAll(from.subList(copy.size(), n));
        s.dirs.put(name, copy);
        s.staging.remove(name);
      }).then(() -> openRegion(s, a.region()));
    }
    if (action instanceof Action.ForgetRegion a) {
      return x.then(() -> {
        drop(s, a.region());
        s.pinned.remove(a.region().getEncodedName());
        s.movedTo.put(a.region().getEncodedName(), a.target());
      });
    }
    if (action instanceof Action.AbortMoveIn a) {
      return x.then(() -> s.open.remove(a.region().getEncodedName())).then(() -> {
        drop(s, a.region());
        s.staging.remove(a.region().getEncodedName());
      });
    }
    if (action instanceof Action.AbortMoveAway a) {
      String name = a.region().getEncodedName();
      if (!s.dirs.containsKey(name)) {
        return Execution.fails("no directory for " + name);
      }
      return x.then(() -> s.pinned.remove(name)).then(() -> openRegion(s, a.region()));
    }
    throw new AssertionError("unknown action " + action);
  }

  /** Both closed, then the merged log: each region's own keys (a daughter's log may hold its sibling's too). */
  private static Execution closeAndMerge(Server s, Action.CloseAndMerge a, Execution x) {
    String lower = a.lower().getEncodedName();
    String upper = a.upper().getEncodedName();
    x.then(() -> s.open.remove(lower)).then(() -> s.open.remove(upper));
    if (s.dirs.containsKey(a.merged().getEncodedName())) {
      return x;
    }
    if (!s.dirs.containsKey(lower) || !s.dirs.containsKey(upper)) {
      return Execution.fails("no directory for one of the regions to merge");
    }
    return x.then(() -> {
      List<Write> merged = new ArrayList<>();
      s.dirs.get(lower).stream().filter(w -> a.lower().containsRow(Bytes.toBytes(w.key()))).forEach(merged::add);
      s.dirs.get(upper).stream().filter(w -> a.upper().containsRow(Bytes.toBytes(w.key()))).forEach(merged::add);
      s.dirs.put(a.merged().getEncodedName(), merged);
    });
  }

  private static Result.Manifest manifest(int writes) {
    return new Result.Manifest(ByteBuffer.allocate(4).putInt(writes).array());
  }

  private static int count(Result.Manifest m) {
    return ByteBuffer.wrap(m.bytes()).getInt();
  }

  // ------------------------------------------------------------------ invariants

  /** Throws AssertionError naming the first broken invariant. */
  @Override
  public void checkInvariants() {
    List<ServerName> hosts = new ArrayList<>();
    List<RegionInfo> copies = new ArrayList<>();
    for (Server s : servers.values()) {
      for (RegionInfo r : s.open.values()) {
        for (int i = 0; i < copies.size(); i++) {
          if (overlap(copies.get(i), r)) {
            throw new AssertionError("two processes serve the same keys: " + r.getRegionNameAsString() + " on "
                + s.name + " and " + copies.get(i).getRegionNameAsString() + " on " + hosts.get(i));
          }
        }
        hosts.add(s.name);
        copies.add(r);
        Entry e = catalog.get(r.getEncodedName());
        // Not in the catalog: not published yet, so no client knows it. Elsewhere and MOVING: the target.
        if (e != null && ("SPLIT".equals(e.state()) || (!s.name.equals(e.server()) && !"MOVING".equals(e.state())))) {
          throw new AssertionError(r.getRegionNameAsString() + " is served on " + s.name + " but the catalog says "
              + e.state() + " on " + e.server());
        }
      }
    }
    for (int k = 0; k < keys.size(); k++) {
      Entry route = null;
      for (Entry e : catalog.values()) {
        if (!"SPLIT".equals(e.state()) && e.region().containsRow(keyBytes.get(k))) {
          if (route != null) {
            throw new AssertionError("the catalog routes " + keys.get(k) + " to two regions: " + route + ", " + e);
          }
          route = e;
        }
      }
      if (route == null) {
        throw new AssertionError("the catalog routes " + keys.get(k) + " nowhere: " + catalog.values());
      }
      String value = acked.get(keys.get(k));
      if (value == null) {
        continue;
      }
      List<Write> log = servers.get(route.server()).dirs.get(route.region().getEncodedName());
      String found = log == null ? null : latest(log, keys.get(k));
      if (!value.equals(found)) {
        throw new AssertionError("acknowledged " + keys.get(k) + "=" + value + " is " + found + " in "
            + route.region().getRegionNameAsString() + " on " + route.server() + (log == null ? " (no directory)" : ""));
      }
    }
  }

  /** Every key readable with its last acknowledged value, and writable, where the catalog says. */
  void checkAllServed() {
    for (String key : keys) {
      Entry e = route(key).orElseThrow();
      RegionInfo served = servers.get(e.server()).open.get(e.region().getEncodedName());
      if (served == null) {
        throw new AssertionError(key + " is not served: " + e);
      }
    }
    for (int i = 0; i < keys.size(); i++) {
      if (!write()) {
        throw new AssertionError("a write was refused at the end");
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

  private static boolean overlap(RegionInfo a, RegionInfo b) {
    boolean aBeforeB = a.getEndKey().length > 0 && Bytes.compareTo(a.getEndKey(), b.getStartKey()) <= 0;
    boolean bBeforeA = b.getEndKey().length > 0 && Bytes.compareTo(b.getEndKey(), a.getStartKey()) <= 0;
    return !aBeforeB && !bBeforeA;
  }

  /** Regions with a directory or staging on {@code server}, by encoded name. */
  TreeSet<String> stored(ServerName server) {
    TreeSet<String> out = new TreeSet<>(servers.get(server).dirs.keySet());
    out.addAll(servers.get(server).staging.keySet());
    return out;
  }
}
