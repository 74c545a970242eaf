package io.basalt.storage.model;

import static org.assertj.core.api.Assertions.fail;

import io.basalt.storage.schema.FamilySchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same random operation sequence on a format-1 (cell records) and a format-2 (row records) region: every
 * answer must be the same in both (and the reference model's), across purges and reopens. Knobs:
 * {@code metamorphic.seeds} (default 12) seeds from {@code metamorphic.baseSeed} (default 1000), each
 * {@code metamorphic.steps} (default 300) steps long.
 */
class FormatMetamorphicTest {
  @TempDir Path dir;

  @Test
  void cellRecordsAndRowRecordsAnswerAlike() {
    int seeds = Integer.getInteger("metamorphic.seeds", 12);
    long base = Long.getLong("metamorphic.baseSeed", 1000L);
    int steps = Integer.getInteger("metamorphic.steps", 300);
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < seeds; i++) {
      long seed = base + i;
      List<ModelStep> script = StepGenerator.generate(seed, steps, false);
      List<FamilySchema> families = StepGenerator.schemas(seed);
      try (ModelHarness h = new ModelHarness(dir.resolve("seed-" + seed), families, StepGenerator.ROWS, true)) {
        for (int s = 0; s < script.size(); s++) {
          try {
            h.run(script.get(s));
          } catch (AssertionError | RuntimeException e) {
            failures.add("seed " + seed + " step " + s + " (" + script.get(s) + "), families " + families + ": " + e);
            break;
          }
        }
      }
    }
    if (!failures.isEmpty()) {
      fail(failures.size() + " of " + seeds + " seeds failed:\n" + String.join("\n", failures));
    }
  }
}
