package io.basalt.bench.storage;

import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.region.Region;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Put rate: single-cell puts of random rows (uniform over the 16-digit key space, so nearly all are
 * inserts) into a region that starts empty, one fresh region per thread count.
 */
final class PutBench {
  private PutBench() {}

  static List<RateResult> run(BenchContext ctx) throws InterruptedException {
    Settings s = ctx.settings;
    Durability durability = s.durability();
    String workload = "put (" + durability + ")";
    ctx.out.printf("%nput: %d-byte values, random rows, %s, JE cache %d MB%n", s.valueBytes(), durability, s.writeCacheMb());
    List<RateResult> results = new ArrayList<>();
    JeStorageEngine engine = ctx.openEngine(s.writeCacheMb());
    try {
      for (int threads : s.threads()) {
        Path dir = ctx.root.resolve("put-" + threads + "t");
        Region region = engine.create(dir, Keys.descriptor());
        try {
          Rate rate = RateRunner.measure(threads, s.warmupSeconds(), s.seconds(), worker -> {
            byte[] value = Keys.value(s.valueBytes());
            return () -> region.mutate(Keys.put(ThreadLocalRandom.current().nextLong(Keys.KEY_SPACE), value), durability);
          });
          ctx.printRate(workload, rate);
          results.add(new RateResult(workload, "random rows, empty region at start", s.writeCacheMb(), rate));
        } finally {
          region.close();
        }
        ctx.delete(dir);
      }
    } finally {
      ctx.closeEngine();
    }
    return results;
  }
}
