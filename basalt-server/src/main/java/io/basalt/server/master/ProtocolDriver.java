package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.PendingDrops;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.catalog.TransactionStore;
import io.basalt.server.control.CloneReport;
import io.basalt.server.control.ControlCodec;
import io.basalt.server.control.CrashPoints;
import io.basalt.server.control.MoveSource;
import io.basalt.server.control.PrefetchReports;
import io.basalt.server.control.RegionServerControl;
import io.basalt.server.master.protocol.Action;
import io.basalt.server.master.protocol.MemberTxn;
import io.basalt.server.master.protocol.GroupMergeActions;
import io.basalt.server.master.protocol.GroupMergeProtocol;
import io.basalt.server.master.protocol.GroupMergeTxn;
import io.basalt.server.master.protocol.GroupSplitProtocol;
import io.basalt.server.master.protocol.GroupSplitTxn;
import io.basalt.server.master.protocol.MoveProtocol;
import io.basalt.server.master.protocol.MoveTxn;
import io.basalt.server.master.protocol.Outcome;
import io.basalt.server.master.protocol.Protocol;
import io.basalt.server.master.protocol.ReplaceMemberProtocol;
import io.basalt.server.master.protocol.Result;
import io.basalt.server.master.protocol.SplitProtocol;
import io.basalt.server.master.protocol.SplitTxn;
import io.basalt.server.master.protocol.Txn;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.ipc.ServerNotRunningYetException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thin driver of the split, move and member-change protocols ({@link io.basalt.server.master.protocol}): the protocol
 * decides, this does what each action says (ZooKeeper records, the catalog, region server calls), times
 * the phases and retries. A protocol that cannot go on (a server it needs is down, or an action keeps
 * failing) is abandoned as if the master had crashed: its record stays in ZooKeeper and {@link
 * Protocol#recover} finishes or undoes it at the next reconciliation.
 *
 * <p>Each completed action is a crash point for tests ({@link CrashPoints}): {@code
 * master.<split|gsplit|move|member>.recorded.<phase>} after a record is written, {@code
 * master.<split|gsplit|move|member>.<Action>}
 * after any other action.
 */
final class ProtocolDriver {
  private static final Logger LOG = LoggerFactory.getLogger(ProtocolDriver.class);
  /** Pauses before the second and third try of an action that has to be repeated. */
  private static final long[] BACKOFF_MILLIS = {500, 1000};
  /** Far above a pull of the largest regions (5 GB at 100 MB/s: under a minute); a live target that hangs. */
  private static final long PREFETCH_TIMEOUT_MILLIS = 15 * 60_000;

  /**
   * A protocol left unfinished in ZooKeeper, to be recovered when what it waits for is back. Master-internal:
   * clients are given an exception class they know.
   */
  static final class Abandoned extends IOException {
    Abandoned(String message) {
      super(message);
    }
  }

  private final Catalog catalog;
  private final ServerManager servers;
  private final TransactionStore transactions;
  private final PrefetchReports prefetches;
  private final OperationHistory history;
  private final ReplicatedRegions replicated;
  private final GroupSplitSteps groupSplits;
  private final GroupMergeSteps groupMerges;
  private final SnapshotSteps snapshotSteps;
  private final MergeSteps mergeSteps;
  private final ParallelParts parallel = new ParallelParts();
  private final PendingDrops pendingDrops;

  ProtocolDriver(Catalog catalog, ServerManager servers, TransactionStore transactions, PendingDrops pendingDrops,
      PrefetchReports prefetches, OperationHistory history, ReplicatedRegions replicated) {
    this.replicated = replicated;
    this.pendingDrops = pendingDrops;
    this.catalog = catalog;
    this.servers = servers;
    this.transactions = transactions;
    this.prefetches = prefetches;
    this.history = history;
    this.groupSplits = new GroupSplitSteps(catalog, servers);
    this.groupMerges = new GroupMergeSteps(catalog, servers);
    this.snapshotSteps = new SnapshotSteps(catalog, servers);
    this.mergeSteps = new MergeSteps(catalog, servers);
  }

  /**
   * Runs {@code p} to its end and returns how it ended.
   *
   * @throws Abandoned if it stopped half way, its record left for recovery
   */
  Outcome drive(Protocol p, TableDescriptor table) throws IOException {
    Run run = new Run(p);
    // Failures per action over the whole drive, not per streak: a protocol may answer a failure with another
    // action that succeeds and then the failed one again (a member change re-joins its new member before each
    // hand-over try), which a streak counter would retry forever, and on the master's event thread.
    Map<Action, Integer> failures = new HashMap<>();
    Optional<Action> next;
    while ((next = p.next()).isPresent()) {
      Action a = next.get();
      long start = System.nanoTime();
      try {
        p.completed(a, execute(a, table, run));
      } catch (IOException | RuntimeException e) {
        String reason = e instanceof IOException ? e.getMessage() : e.toString();
        LOG.warn("{}: {} failed: {}", p.id(), a.getClass().getSimpleName(), reason);
        p.failed(a, reason);
        int failed = failures.merge(a, 1, Integer::sum);
        if (failed == 1 && !p.next().map(a::equals).orElse(false)) {
          continue; // the protocol turned to rolling back
        }
        ServerName down = serverDown(a);
        if (down != null || failed > BACKOFF_MILLIS.length) {
          throw new Abandoned(p.id() + " did not finish (" + a.getClass().getSimpleName() + ": " + reason + "); "
              + (down != null ? "it goes on when " + down + " is back" : "it is retried in the background"));
        }
        sleep(BACKOFF_MILLIS[failed - 1]);
        continue;
      }
      run.timed(a, start, System.nanoTime());
      CrashPoints.reached(crashPoint(run.kind, a));
    }
    Outcome outcome = p.outcome().orElseThrow();
    run.record(outcome);
    return outcome;
  }

  private Result execute(Action a, TableDescriptor table, Run run) throws IOException {
    Optional<ServerName> skippedOn = doneWhileDown(a);
    if (skippedOn.isPresent()) {
      LOG.info("{} on {}: left for its return (the server is down)", a.getClass().getSimpleName(), skippedOn.get());
      return Result.DONE;
    }
    if (a instanceof Action.InParallel p) {
      // Its parts (a replicated split's member actions) do not touch run, which is not thread-safe.
      return parallel.run(p, part -> execute(part, table, run));
    } else if (a instanceof Action.PersistTxn r) {
      transactions.put(r.txn().id(), r.txn().toBytes());
    } else if (a instanceof Action.DeleteTxn d) {
      transactions.remove(d.id());
    } else if (a instanceof Action.SetRegionState s) {
      Optional<RegionRecord> group = catalog.region(s.region().getEncodedName()).filter(RegionRecord::replicated);
      catalog.putRegion(group.isPresent() ? group.get().withState(s.state().name())
          : new RegionRecord(s.region(), liveOrRecorded(s.server()), s.state().name()));
    } else if (a instanceof Action.PublishSplit s) {
      ServerName server = liveOrRecorded(s.server());
      RegionInfo retired = RegionInfoBuilder.newBuilder(s.parent()).setOffline(true).setSplit(true).build();
      catalog.putRegions(List.of(
          new RegionRecord(retired, server, RegionRecord.SPLIT, s.daughterA(), s.daughterB()),
          new RegionRecord(s.daughterA(), server, RegionRecord.OPEN),
          new RegionRecord(s.daughterB(), server, RegionRecord.OPEN)));
    } else if (a instanceof Action.PublishMove m) {
      catalog.putRegion(new RegionRecord(m.region(), liveOrRecorded(m.target()), RegionRecord.OPEN));
    } else if (a instanceof Action.ChooseMidpoint c) {
      Optional<byte[]> row = at(c.server()).midpoint(c.parent());
      return row.<Result>map(Result.SplitPoint::new)
          .orElseGet(() -> new Result.NoSplitPoint("one row only, or still empty"));
    } else if (a instanceof Action.CloseAndClone c) {
      CloneReport report = at(c.server()).closeAndClone(c.parent(), c.daughterA(), c.daughterB());
      run.phases.put("close", report.closeMillis());
      run.phases.put("clone", report.cloneMillis());
      run.bytes += report.bytesCopied();
    } else if (a instanceof Action.OpenDaughters o) {
      openBoth(at(o.server()), o.daughterA(), o.daughterB(), table, run);
    } else if (a instanceof Action.OpenRegion o) {
      at(o.server()).openRegion(o.region(), table);
    } else if (a instanceof Action.DropRegionFiles d) {
      at(d.server()).dropRegion(d.region());
    } else if (a instanceof Action.RollBackSplit r) {
      at(r.server()).rollBackSplit(r.parent(), table, r.daughterA(), r.daughterB());
    } else if (a instanceof Action.PreClose c) {
      return manifest(at(c.source()).preClose(c.region()));
    } else if (a instanceof Action.PreOpen o) {
      run.bytes += prefetch(o);
    } else if (a instanceof Action.Close c) {
      return manifest(at(c.source()).closeForMove(c.region()));
    } else if (a instanceof Action.Open o) {
      run.bytes += at(o.target()).openMoved(o.region(), table, moveSource(o.finalManifest()));
    } else if (a instanceof Action.ForgetRegion f) {
      at(f.source()).finishMoveAway(f.region(), liveOrRecorded(f.target()));
    } else if (a instanceof Action.AbortMoveIn m) {
      at(m.target()).abortMoveIn(m.region());
    } else if (a instanceof Action.AbortMoveAway m) {
      at(m.source()).abortMoveAway(m.region(), table);
    } else if (MergeSteps.handles(a)) {
      run.bytes += mergeSteps.execute(a, table, run.phases);
    } else if (a instanceof Action.OfGroupMerge g) {
      long[] copied = {0};
      Result result = groupMerges.execute(g, table, copied);
      if (copied[0] != 0) {
        run.bytes += copied[0]; // the founder's copy: never a part run in parallel
      }
      return result;
    } else if (SnapshotSteps.handles(a)) {
      return snapshotSteps.execute(a);
    } else if (!executeMemberAction(a, table)) {
      return groupSplits.execute(a, table);
    }
    return Result.DONE;
  }

  /** The member-change actions ({@link ReplaceMemberProtocol}); false if {@code a} is none of them. */
  private boolean executeMemberAction(Action a, TableDescriptor table) throws IOException {
    if (a instanceof Action.PublishMembers p) {
      RegionRecord r = record(p.region());
      if (!r.members().equals(p.members())) {
        catalog.putRegion(r.withMembers(p.members()));
      }
    } else if (a instanceof Action.JoinMember j) {
      at(j.server()).joinMember(j.region(), table, record(j.region()).group(), j.members());
    } else if (a instanceof Action.TransferPrimary t) {
      replicated.transferPrimary(record(t.region()), t.to(), t.awayFrom());
    } else if (a instanceof Action.CloseMember c) {
      // A server that is down runs no member (see the action).
      Optional<ServerName> live = servers.liveAt(c.server());
      if (live.isPresent()) {
        servers.control(live.get()).closeRegion(c.region());
      }
    } else if (a instanceof Action.DeleteMember d) {
      deleteMember(d);
    } else if (a instanceof Action.DropMemberFiles d) {
      // A server that is down has its stray copies dropped when it returns (see the action).
      Optional<ServerName> live = servers.liveAt(d.server());
      if (live.isPresent()) {
        servers.control(live.get()).dropRegion(d.region());
      }
    } else {
      return false;
    }
    return true;
  }

  /** Asks each live server of {@code via} in turn until one had the group delete the member. */
  private void deleteMember(Action.DeleteMember d) throws IOException {
    IOException last = null;
    for (ServerName via : d.via()) {
      Optional<ServerName> live = servers.liveAt(via);
      if (live.isEmpty()) {
        continue;
      }
      try {
        servers.control(live.get()).deleteMember(d.region(), d.gone());
        return;
      } catch (IOException e) {
        last = e;
      }
    }
    throw last != null ? last : new ServerNotRunningYetException("no server of " + d.via() + " is online to delete "
        + d.gone().server() + " from the group of " + d.region().getRegionNameAsString());
  }

  private RegionRecord record(RegionInfo region) throws IOException {
    return catalog.region(region.getEncodedName()).orElseThrow(() -> new org.apache.hadoop.hbase.UnknownRegionException(
        region.getRegionNameAsString()));
  }

  /** The target pulls in the background and reports the end in ZooKeeper, which the driver watches. */
  private long prefetch(Action.PreOpen o) throws IOException {
    String encoded = o.region().getEncodedName();
    ServerName target = live(o.target());
    prefetches.clear(encoded);
    servers.control(target).prefetch(o.region(), moveSource(o.manifest()));
    long bytes = prefetches.await(encoded, target, PREFETCH_TIMEOUT_MILLIS);
    prefetches.clear(encoded);
    return bytes;
  }

  /** The daughters open in parallel: the split's unavailability is one open, not two. */
  private static void openBoth(RegionServerControl rs, RegionInfo a, RegionInfo b, TableDescriptor table, Run run)
      throws IOException {
    CompletableFuture<Long> openB = CompletableFuture.supplyAsync(() -> {
      try {
        return timedOpen(rs, b, table);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    long openA = timedOpen(rs, a, table);
    try {
      run.phases.put("openA", openA);
      run.phases.put("openB", openB.join());
    } catch (CompletionException e) {
      throw e.getCause() instanceof UncheckedIOException u ? u.getCause()
          : new IOException("opening " + b.getRegionNameAsString() + " failed", e.getCause());
    }
  }

  private static long timedOpen(RegionServerControl rs, RegionInfo region, TableDescriptor table) throws IOException {
    long t = System.nanoTime();
    rs.openRegion(region, table);
    return (System.nanoTime() - t) / 1_000_000;
  }

  private static Result.Manifest manifest(MoveSource source) {
    return new Result.Manifest(new ControlCodec.Writer().moveSource(source).toBytes());
  }

  private static MoveSource moveSource(Result.Manifest manifest) throws IOException {
    return new ControlCodec.Reader(manifest.bytes()).moveSource();
  }

  /** The instance live now at a recorded server's address (a restarted server keeps its directories). */
  private RegionServerControl at(ServerName recorded) throws IOException {
    return servers.control(live(recorded));
  }

  private ServerName live(ServerName recorded) throws ServerNotRunningYetException {
    return servers.liveAt(recorded).orElseThrow(() ->
        new ServerNotRunningYetException("region server " + recorded.getAddress() + " is not online"));
  }

  private ServerName liveOrRecorded(ServerName recorded) {
    return servers.liveAt(recorded).orElse(recorded);
  }

  /**
   * The down server of an action that counts as done while its server is down, because a returning server
   * catches up on its own: it drops what the action would have dropped ({@link PendingDrops}, recorded here:
   * a replicated split's retired parent, the daughters of one rolled back) and the assignment opens the
   * members the catalog gives it. Waiting instead would hold the region (no re-replication, no assignment)
   * for as long as the server stays away, and a rollback waiting on it kept the parent sealed, its writers
   * stalled until the server returned (108 s in the churn soak). A daughter's founder is never skipped: its
   * group exists only on its disk.
   */
  private Optional<ServerName> doneWhileDown(Action a) throws IOException {
    List<RegionInfo> drops;
    ServerName server;
    if (a instanceof Action.RollBackGroupSplit r) {
      server = r.server();
      drops = List.of(r.daughterA(), r.daughterB());
    } else if (a instanceof GroupMergeActions.RollBackGroupMerge r) {
      server = r.server();
      drops = List.of(r.merged());
    } else if (a instanceof Action.OpenDaughterMember o && !o.members().get(0).isOn(o.server())) {
      server = o.server();
      drops = List.of();
    } else if (a instanceof Action.DropRegionFiles d && catalog.region(d.region().getEncodedName())
        .map(RegionRecord::replicated).orElse(false)) {
      server = d.server();
      drops = List.of(d.region());
    } else {
      return Optional.empty();
    }
    if (servers.liveAt(server).isPresent()) {
      return Optional.empty();
    }
    for (RegionInfo r : drops) {
      pendingDrops.add(server, r);
    }
    return Optional.of(server);
  }

  /** The server an action needs, if it is down now (waiting for it beats retrying). */
  private ServerName serverDown(Action a) {
    if (a instanceof Action.CloseMember || a instanceof Action.DropMemberFiles || a instanceof Action.RollBackGroupSplit
        || a instanceof GroupMergeActions.RollBackGroupMerge) {
      return null; // done while their server is down
    }
    if (a instanceof Action.DeleteMember d) {
      return d.via().stream().allMatch(v -> servers.liveAt(v).isEmpty()) ? d.via().get(0) : null;
    }
    List<ServerName> need = a instanceof Action.InParallel p ? p.servers()
        : a.site().isMaster() ? List.of() : List.of(a.site().regionServer());
    return need.stream().filter(s -> servers.liveAt(s).isEmpty()).findFirst().orElse(null);
  }

  private static String crashPoint(String kind, Action a) {
    if (a instanceof Action.PersistTxn r) {
      String phase = r.txn() instanceof SplitTxn s ? s.phase().name()
          : r.txn() instanceof GroupSplitTxn g ? g.phase().name()
          : r.txn() instanceof MemberTxn m ? m.phase().name()
          : r.txn() instanceof io.basalt.server.master.protocol.SnapshotTxn t ? t.phase().name()
          : r.txn() instanceof io.basalt.server.master.protocol.CloneTxn c ? c.phase().name()
          : r.txn() instanceof io.basalt.server.master.protocol.MergeTxn m ? m.phase().name()
          : r.txn() instanceof GroupMergeTxn g ? g.phase().name()
          : ((MoveTxn) r.txn()).phase().name();
      return "master." + kind + ".recorded." + phase.toLowerCase(Locale.ROOT);
    }
    return "master." + kind + "." + a.getClass().getSimpleName();
  }

  private static void sleep(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while retrying");
    }
  }

  /** What one drive measured: phases as the status page and benchmarks name them, unavailability, bytes. */
  private final class Run {
    final String kind;
    final Protocol protocol;
    final long startedAt = System.currentTimeMillis();
    final Map<String, Long> phases = new LinkedHashMap<>();
    long bytes;
    /** Nanos when the region stopped serving, and when its successor(s) served and were published. */
    long unavailableFrom;
    long unavailableTo;
    RegionInfo region;
    ServerName from;
    ServerName to;

    Run(Protocol p) {
      this.protocol = p;
      this.kind = p instanceof SplitProtocol ? "split" : p instanceof GroupSplitProtocol ? "gsplit"
          : p instanceof ReplaceMemberProtocol ? "member" : p instanceof MoveProtocol ? "move"
          : p instanceof io.basalt.server.master.protocol.CloneSnapshotProtocol ? "clone"
          : p instanceof io.basalt.server.master.protocol.MergeProtocol ? "merge"
          : p instanceof GroupMergeProtocol ? "gmerge" : "snapshot";
      if (p instanceof io.basalt.server.master.protocol.MergeProtocol merge) {
        describe(merge.txn());
        return;
      }
      if (p instanceof GroupMergeProtocol merge) {
        merge.txn().ifPresent(this::describe);
        return;
      }
      if (!(p instanceof MoveProtocol || p instanceof SplitProtocol || p instanceof GroupSplitProtocol
          || p instanceof ReplaceMemberProtocol)) {
        return; // snapshot protocols: not in the split/move history
      }
      if (p instanceof SplitProtocol s) {
        s.txn().ifPresent(this::describe);
      } else if (p instanceof GroupSplitProtocol g) {
        g.txn().ifPresent(this::describe);
      } else if (p instanceof ReplaceMemberProtocol m) {
        describe(m.txn());
      } else {
        describe(((MoveProtocol) p).txn());
      }
    }

    void timed(Action a, long start, long end) {
      long millis = (end - start) / 1_000_000;
      if (protocol instanceof GroupMergeProtocol && timedMerge(a, millis, end)) {
        return;
      }
      if (a instanceof Action.InParallel p) {
        if (p.parts().stream().anyMatch(Action.FoundDaughterGroup.class::isInstance)
            && p.parts().get(0) instanceof Action.CloseAndCloneMember) {
          phases.put("closePrimaryAndFound", millis);
        } else {
          // The parts ran at once and are of a kind: timed as the first (a daughter's founder first).
          timed(p.parts().get(0), start, end);
        }
      } else if (a instanceof Action.PersistTxn r) {
        describe(r.txn());
      } else if (a instanceof Action.CloseAndClone || a instanceof Action.Close || a instanceof Action.SealGroup
          || a instanceof Action.CloseAndMerge) {
        unavailableFrom = start;
        if (a instanceof Action.SealGroup) {
          phases.put("seal", millis);
        }
      } else if (a instanceof Action.CloseAndCloneMember c) {
        phases.merge(c.server().equals(from) ? "closeAndClonePrimary" : "closeAndCloneSecondaries", millis,
            Long::sum);
      } else if (a instanceof Action.FoundDaughterGroup) {
        phases.merge("found", millis, Long::sum);
      } else if (a instanceof Action.PublishGroupSplit) {
        phases.put("publish", millis);
      } else if (a instanceof Action.OpenDaughterMember o) {
        if (o.members().get(0).isOn(o.server())) {
          phases.merge("openFounders", millis, Long::sum);
          unavailableTo = end; // a daughter's founder, its first primary, serves
        } else {
          phases.merge("openMembers", millis, Long::sum);
        }
        if (a instanceof Action.Close) {
          phases.put("close", millis);
        }
      } else if (a instanceof Action.PublishSplit) {
        phases.put("publish", millis);
      } else if (a instanceof Action.OpenDaughters) {
        unavailableTo = end;
      } else if (a instanceof Action.OpenRegion && protocol instanceof io.basalt.server.master.protocol.MergeProtocol) {
        phases.put("open", millis);
        unavailableTo = end;
      } else if (a instanceof Action.PublishMerge) {
        phases.put("publish", millis);
      } else if (a instanceof Action.PreClose || a instanceof Action.PreOpen) {
        phases.merge("prefetch", millis, Long::sum);
      } else if (a instanceof Action.Open) {
        phases.put("catchUpAndOpen", millis);
      } else if (a instanceof Action.PublishMove) {
        phases.put("publish", millis);
        unavailableTo = end;
      } else if (a instanceof Action.ForgetRegion) {
        phases.put("cleanUp", millis);
      } else if (a instanceof Action.JoinMember) {
        phases.merge("join", millis, Long::sum);
      } else if (a instanceof Action.TransferPrimary) {
        phases.merge("handOver", millis, Long::sum);
      } else if (a instanceof Action.CloseMember || a instanceof Action.DeleteMember
          || a instanceof Action.DropMemberFiles) {
        phases.merge("dropMember", millis, Long::sum);
      }
    }

    /** A replicated merge's phases; false for the actions it shares with a split (the seal starts the pause). */
    private boolean timedMerge(Action a, long millis, long end) {
      String phase = a instanceof Action.InParallel p && p.parts().get(0) instanceof GroupMergeActions.CloseMemberForMerge
          ? "close" : a instanceof GroupMergeActions.FoundMergedGroup ? "foundAndCopy"
          : a instanceof Action.OpenDaughterMember ? "openFounder"
          : a instanceof Action.InParallel p && p.parts().size() > 1
              && p.parts().get(1) instanceof GroupMergeActions.JoinMergedMember ? "join"
          : a instanceof GroupMergeActions.PublishGroupMerge ? "publish" : null;
      if (phase == null) {
        return false;
      }
      phases.merge(phase, millis, Long::sum);
      if (phase.equals("publish")) {
        unavailableTo = end;
      }
      return true;
    }

    private void describe(Txn txn) {
      if (txn instanceof io.basalt.server.master.protocol.SnapshotTxn
          || txn instanceof io.basalt.server.master.protocol.CloneTxn) {
        return;
      }
      if (txn instanceof MemberTxn m) {
        region = m.region();
        from = m.removed() == null ? null : m.removed().server();
        to = m.added() == null ? null : m.added().server();
      } else if (txn instanceof SplitTxn s) {
        region = s.parent();
        from = s.server();
        to = s.server();
      } else if (txn instanceof io.basalt.server.master.protocol.MergeTxn m) {
        region = m.lower();
        from = m.server();
        to = m.server();
      } else if (txn instanceof GroupMergeTxn g) {
        region = g.lower().region();
        from = g.base().primary();
        to = g.mergedMembers().get(0).server();
      } else if (txn instanceof GroupSplitTxn g) {
        region = g.parent();
        from = g.primary();
        to = g.primary();
      } else {
        MoveTxn m = (MoveTxn) txn;
        region = m.region();
        from = m.source();
        to = m.target();
      }
    }

    /**
     * Splits and moves that this drive saw through go into the history; rolled back ones and those finished
     * after a crash (their unavailability unknown) are in the log only.
     */
    void record(Outcome outcome) {
      LOG.info("{}: {} {}", protocol.id(), outcome, phases);
      boolean happened = outcome.kind() == Outcome.Kind.SPLIT || outcome.kind() == Outcome.Kind.MOVED
          || outcome.kind() == Outcome.Kind.MERGED;
      if (!happened || region == null || unavailableFrom == 0 || unavailableTo < unavailableFrom) {
        return;
      }
      long unavailable = (unavailableTo - unavailableFrom) / 1_000_000;
      history.add(new OperationHistory.Operation(kind, region.getRegionNameAsString(), from.toString(),
          to.toString(), startedAt, phases, unavailable, bytes, outcome.kind().name()));
    }
  }
}
