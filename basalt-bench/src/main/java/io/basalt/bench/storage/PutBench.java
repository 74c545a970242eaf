package io.basalt.bench.storage;

import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.BatchResult;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.region.Region;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Put rate: single-cell puts of random rows (uniform over the 16-digit key space, so nearly all are
 * inserts) into a region that starts empty, one fresh region per figure: one put per call, and batches of
 * puts per call (as a client's batch or buffered mutator sends them), counted in puts.
 */
final class PutBench {
  private PutBench() {}

  static List<RateResult> run(BenchContext ctx) throws InterruptedException {
    Settings s = ctx.settings;
    Durability durability = s.durability();
    ctx.out.printf("%nput: %d-byte values, random rows, %s, JE cache %d MB%n", s.valueBytes(), durability, s.writeCacheMb());
    List<RateResult> results = new ArrayList<>();
    JeStorageEngine engine = ctx.openEngine(s.writeCacheMb());
    try {
      for (int threads : s.threads()) {
        results.add(measure(ctx, engine, threads, 1));
        if (s.putBatch() > 0) {
          results.add(measure(ctx, engine, threads, s.putBatch()));
        }
      }
    } finally {
      ctx.closeEngine();
    }
    return results;
  }

  /** One figure; {@code batch} 1 means single {@code mutate} calls, more means {@code mutateBatch} calls. */
  private static RateResult measure(BenchContext ctx, JeStorageEngine engine, int threads, int batch)
      throws InterruptedException {
    Settings s = ctx.settings;
    Durability durability = s.durability();
    String workload = batch == 1 ? "put (" + durability + ")" : "put (" + durability + ", batches of " + batch + ")";
    Path dir = ctx.root.resolve("put-" + threads + "t-" + batch);
    Region region = engine.create(dir, Keys.descriptor());
    try {
      Rate rate = RateRunner.measure(threads, s.warmupSeconds(), s.seconds(), worker -> {
        byte[] value = Keys.value(s.valueBytes());
        if (batch == 1) {
          return () -> region.mutate(Keys.put(ThreadLocalRandom.current().nextLong(Keys.KEY_SPACE), value), durability);
        }
        return () -> {
          List<RowMutation> puts = new ArrayList<>(batch);
          for (int i = 0; i < batch; i++) {
            puts.add(Keys.put(ThreadLocalRandom.current().nextLong(Keys.KEY_SPACE), value));
          }
          BatchResult result = region.mutateBatch(puts, durability);
          if (!result.allApplied()) {
            throw new BenchFailure("a batched put failed", result.failure(firstFailure(result)));
          }
        };
      }).perItem(batch);
      ctx.printRate(workload, rate);
      return new RateResult(workload, "random rows, empty region at start", s.writeCacheMb(), rate);
    } finally {
      region.close();
      ctx.delete(dir);
    }
  }

  private static int firstFailure(BatchResult result) {
    for (int i = 0; i < result.size(); i++) {
      if (!result.applied(i)) {
        return i;
      }
    }
    return -1;
  }
}
