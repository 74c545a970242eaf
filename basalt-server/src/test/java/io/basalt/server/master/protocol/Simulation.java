package io.basalt.server.master.protocol;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.ServerName;

/**
 * Runs a protocol against a simulated world ({@link SimCluster}, {@link SimGroups}) under a schedule of faults, checking the cluster's
 * invariants after every effect. Points are numbered across the run: an action with n effects has the
 * points before each effect and the one after the last (done, not yet reported). At a point, a fault
 * can be: the master crashes (the machine is dropped; a new one recovers from the transaction store), a
 * region server crashes (and comes back; the action fails if it was running there), or the action fails.
 */
final class Simulation<C extends SimWorld> {
  static final int MAX_ACTIONS = 200;

  enum Kind { MASTER_CRASH, SERVER_CRASH, FAIL }

  record Fault(int point, Kind kind, ServerName server) {
    @Override
    public String toString() {
      return kind + (server == null ? "" : "(" + server.getHostname() + ")") + "@" + point;
    }
  }

  /** An action as run: its first point and how many effects it had. */
  record Step(Action action, int firstPoint, int effects) {
    /** The point after its last effect: done, not yet reported. */
    int donePoint() {
      return firstPoint + effects;
    }
  }

  /** What a run ended with. */
  record Run<C>(C cluster, Optional<Outcome> outcome, int points, List<Step> steps, List<Object> trace) {
    String describe() {
      StringBuilder b = new StringBuilder();
      trace.forEach(t -> b.append("\n  ").append(t));
      return b.toString();
    }
  }

  private final Supplier<C> setup;
  private final Function<C, Protocol> begin;
  private final List<ServerName> crashable;

  Simulation(Supplier<C> setup, Function<C, Protocol> begin, List<ServerName> crashable) {
    this.setup = setup;
    this.begin = begin;
    this.crashable = crashable;
  }

  /** The faults one can inject at a point. */
  List<Fault> faultsAt(int point) {
    List<Fault> out = new ArrayList<>();
    out.add(new Fault(point, Kind.MASTER_CRASH, null));
    out.add(new Fault(point, Kind.FAIL, null));
    crashable.forEach(s -> out.add(new Fault(point, Kind.SERVER_CRASH, s)));
    return out;
  }

  /**
   * Runs every schedule of up to {@code depth} faults at increasing points, handing each finished run to
   * {@code check}. Returns how many runs there were.
   */
  int exhaustive(int depth, Consumer<Run<C>> check) {
    return explore(List.of(), depth, check);
  }

  private int explore(List<Fault> faults, int depth, Consumer<Run<C>> check) {
    Run<C> run = run(faults);
    check.accept(run);
    int runs = 1;
    if (faults.size() == depth) {
      return runs;
    }
    int from = faults.isEmpty() ? 0 : faults.get(faults.size() - 1).point() + 1;
    for (int p = from; p < run.points(); p++) {
      for (Fault f : faultsAt(p)) {
        List<Fault> more = new ArrayList<>(faults);
        more.add(f);
        runs += explore(more, depth, check);
      }
    }
    return runs;
  }

  /**
   * Runs {@code runs} schedules of {@code count} faults at random increasing points (seeded, so a failure
   * repeats), handing each finished run to {@code check}.
   */
  void random(long seed, int runs, int count, Consumer<Run<C>> check) {
    java.util.Random random = new java.util.Random(seed);
    int span = run(List.of()).points() * 2;
    for (int r = 0; r < runs; r++) {
      java.util.TreeSet<Integer> points = new java.util.TreeSet<>();
      while (points.size() < count) {
        points.add(random.nextInt(span));
      }
      List<Fault> faults = new ArrayList<>();
      for (int point : points) {
        List<Fault> choices = faultsAt(point);
        faults.add(choices.get(random.nextInt(choices.size())));
      }
      check.accept(run(faults));
    }
  }

  /** The point just after the n-th (from 1) action of that type did its effects, in a run without faults. */
  int pointAfter(Class<? extends Action> type, int n) {
    return run(List.of()).steps().stream().filter(s -> type.isInstance(s.action())).skip(n - 1L).findFirst()
        .orElseThrow().donePoint();
  }

  Run<C> run(List<Fault> faults) {
    C c = setup.get();
    List<Object> trace = new ArrayList<>();
    try {
      return run(c, faults, trace);
    } catch (AssertionError | RuntimeException e) {
      StringBuilder b = new StringBuilder();
      trace.forEach(t -> b.append("\n  ").append(t));
      throw new AssertionError("faults " + faults + ": " + e.getMessage() + b, e);
    }
  }

  private Run<C> run(C c, List<Fault> faults, List<Object> trace) {
    c.checkInvariants();
    Protocol p = begin.apply(c);
    int point = 0;
    int actions = 0;
    List<Step> steps = new ArrayList<>();
    while (p != null && !p.isDone()) {
      if (++actions > MAX_ACTIONS) {
        throw new AssertionError("no end after " + MAX_ACTIONS + " actions");
      }
      Action a = p.next().orElseThrow();
      trace.add(a);
      SimCluster.Execution x = c.execute(a);
      steps.add(new Step(a, point, x.effects.size()));
      boolean reported = false;
      for (int i = 0; i <= x.effects.size() && !reported; i++) {
        Fault f = at(faults, point++);
        if (f != null) {
          trace.add(f);
          switch (f.kind()) {
            case MASTER_CRASH -> {
              c.newMaster();
              p = recover(c, trace);
              reported = true;
            }
            case FAIL -> {
              p.failed(a, "injected");
              reported = true;
            }
            case SERVER_CRASH -> {
              c.crash(f.server());
              c.checkInvariants();
              boolean runsThere = a instanceof Action.InParallel par ? par.servers().contains(f.server())
                  : f.server().equals(a.site().regionServer());
              if (runsThere) {
                p.failed(a, f.server() + " crashed");
                reported = true;
              }
            }
          }
        }
        if (!reported && i < x.effects.size()) {
          x.effects.get(i).run();
          c.write();
          c.checkInvariants();
        }
      }
      if (!reported) {
        String failure = x.failure != null ? x.failure : x.lateFailure.get();
        if (failure != null) {
          trace.add(failure);
          p.failed(a, failure);
        } else {
          p.completed(a, x.result.get());
        }
      }
    }
    Optional<Outcome> outcome = p == null ? Optional.empty() : p.outcome();
    trace.add(outcome.isPresent() ? outcome.get() : "unknown outcome (the master crashed after the end)");
    return new Run<>(c, outcome, point, steps, trace);
  }

  /** A new master: the transaction left in the store, if any, recovered from its record alone. */
  private static Protocol recover(SimWorld c, List<Object> trace) {
    if (c.txns().isEmpty()) {
      trace.add("no transaction left");
      return null;
    }
    Map.Entry<String, byte[]> t = c.txns().entrySet().iterator().next();
    try {
      trace.add(Txn.parse(t.getValue()));
      return Protocol.recover(t.getValue());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Fault at(List<Fault> faults, int point) {
    for (Fault f : faults) {
      if (f.point() == point) {
        return f;
      }
    }
    return null;
  }
}
