package io.basalt.storage.model;

import static org.assertj.core.api.Assertions.fail;

import io.basalt.storage.schema.FamilySchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random operation sequences run against a real region and against {@link ReferenceModel}, comparing every
 * answer and then every row after each step, with purges and reopens in between.
 *
 * <p>Knobs (system properties): {@code model.seeds} (default 30) seeds from {@code model.baseSeed} (default 1)
 * on, each {@code model.steps} (default 400) steps long; {@code model.random=true} picks a random base seed;
 * {@code model.seed=N} replays one seed (printing its whole history on failure) and, with
 * {@code model.minimize=true}, shrinks a failing run to a short list of steps; {@code model.avoidKnownBugs=true}
 * leaves out the inputs that hit the bugs {@link ModelRegressionTest} shows. Example:
 * {@code mvn -q test -pl basalt-storage -Dtest=ModelBasedTest -Dmodel.seed=17 -Dmodel.minimize=true}.
 */
class ModelBasedTest {
  /** Leaves out inputs that hit the store bugs ModelRegressionTest shows, to look for other differences. */
  private static final boolean AVOID_KNOWN_BUGS = Boolean.getBoolean("model.avoidKnownBugs");

  @TempDir Path dir;

  @Test
  void storeAgreesWithTheReferenceModel() {
    int steps = Integer.getInteger("model.steps", 400);
    String replay = System.getProperty("model.seed");
    if (replay != null) {
      replay(Long.parseLong(replay), steps);
      return;
    }
    int seeds = Integer.getInteger("model.seeds", 30);
    long base = Boolean.getBoolean("model.random") ? new Random().nextLong() & 0xFFFFFFFFL : Long.getLong("model.baseSeed", 1L);
    List<String> failures = new ArrayList<>();
    Failure first = null;
    String firstReport = null;
    for (int i = 0; i < seeds; i++) {
      long seed = base + i;
      List<ModelStep> script = StepGenerator.generate(seed, steps, AVOID_KNOWN_BUGS);
      Failure f = runScript(seed, script, dir.resolve("seed-" + seed));
      if (f != null) {
        failures.add(seed + " (step " + f.step + ")");
        if (first == null) {
          first = f;
          firstReport = f.describe(seed, script, 30);
        }
      }
    }
    if (!failures.isEmpty()) {
      fail(failures.size() + " of " + seeds + " seeds disagree with the model: " + failures + "\nfirst failure:\n"
          + firstReport, first.error);
    }
  }

  private void replay(long seed, int steps) {
    List<ModelStep> script = StepGenerator.generate(seed, steps, AVOID_KNOWN_BUGS);
    Failure f = runScript(seed, script, dir.resolve("replay"));
    if (f == null) {
      return;
    }
    String report = f.describe(seed, script, Integer.MAX_VALUE);
    if (Boolean.getBoolean("model.minimize")) {
      List<ModelStep> small = minimize(seed, script.subList(0, f.step + 1));
      Failure g = runScript(seed, small, dir.resolve("minimal"));
      StringBuilder sb = new StringBuilder("\nminimal failing sequence (" + small.size() + " steps, schemas "
          + StepGenerator.schemas(seed) + "):\n");
      small.forEach(s -> sb.append("  ").append(s).append('\n'));
      sb.append(g == null ? "(did not fail again?)" : g.error.getMessage());
      report += sb;
    }
    fail(report, f.error);
  }

  // ------------------------------------------------------------------------------------------ running

  /** Where and how a run went wrong. */
  private record Failure(int step, Throwable error, List<FamilySchema> families) {
    String describe(long seed, List<ModelStep> script, int historyLines) {
      StringBuilder sb = new StringBuilder("seed " + seed + " (replay with -Dmodel.seed=" + seed + "), families "
          + families + "\nstep " + step + ": " + script.get(step) + "\n" + error + "\nhistory:\n");
      for (int i = Math.max(0, step - historyLines); i <= step; i++) {
        sb.append(String.format("  %4d %s%n", i, script.get(i)));
      }
      return sb.toString();
    }
  }

  /** Runs the steps on a fresh region; null when store and model agreed throughout. */
  private Failure runScript(long seed, List<ModelStep> script, Path where) {
    List<FamilySchema> families = StepGenerator.schemas(seed);
    try (ModelHarness h = new ModelHarness(where, families, StepGenerator.ROWS)) {
      for (int i = 0; i < script.size(); i++) {
        try {
          h.run(script.get(i));
        } catch (AssertionError | RuntimeException e) {
          return new Failure(i, e, families);
        }
      }
    }
    return null;
  }

  private int minimizeRuns;

  /** Drops chunks of steps, then single steps, as long as the run still fails. */
  private List<ModelStep> minimize(long seed, List<ModelStep> failing) {
    List<ModelStep> current = new ArrayList<>(failing);
    for (int chunk = Math.max(1, current.size() / 2); chunk >= 1; chunk = chunk == 1 ? 0 : Math.max(1, chunk / 2)) {
      boolean removed = true;
      while (removed) {
        removed = false;
        for (int from = 0; from < current.size() - 1; from += chunk) {
          List<ModelStep> candidate = new ArrayList<>(current.subList(0, from));
          candidate.addAll(current.subList(Math.min(current.size(), from + chunk), current.size()));
          if (candidate.isEmpty()) {
            continue;
          }
          Failure f = runScript(seed, candidate, dir.resolve("min-" + minimizeRuns++));
          if (f != null) {
            current = new ArrayList<>(candidate.subList(0, f.step + 1));
            removed = true;
          }
        }
      }
    }
    return current;
  }
}
