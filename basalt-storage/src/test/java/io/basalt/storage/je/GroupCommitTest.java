package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import com.sleepycat.je.StatsConfig;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.schema.FamilySchema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** FSYNC_WAL writers that commit together share fsyncs instead of paying one each. */
class GroupCommitTest extends RegionTestBase {
  @Test
  void concurrentFsyncWritersShareFsyncs() throws Exception {
    JeRegion r = (JeRegion) fixture().create(FamilySchema.of("f1"));
    StatsConfig clear = new StatsConfig().setClear(true);
    r.environment().getStats(clear);
    int threads = 8;
    int perThread = 40;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      futures.add(pool.submit(() -> {
        for (int i = 0; i < perThread; i++) {
          r.mutate(RowMutation.of(of("t" + id + "-" + i)).put(F1, of("q"), of("v")).build(), Durability.FSYNC_WAL);
        }
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    long fsyncs = r.environment().getStats(clear).getNFSyncs();
    int commits = threads * perThread;
    System.out.printf("%d FSYNC_WAL commits from %d threads took %d fsyncs%n", commits, threads, fsyncs);
    assertThat(r.stats().cellCount()).isEqualTo(commits);
    assertThat(fsyncs).as("fsyncs for %d concurrent FSYNC_WAL commits", commits).isPositive().isLessThan(commits * 3L / 4);
  }
}
