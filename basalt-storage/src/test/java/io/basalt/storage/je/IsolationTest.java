package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Readers never see part of a row mutation, however writers and readers interleave. */
class IsolationTest extends RegionTestBase {
  private static final int ROWS = 8;

  @Test
  void getsAndScansSeeWholeMutationsOnly() throws Exception {
    Region r = fixture().create(FamilySchema.of("f1"), FamilySchema.of("f2"));
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<Integer>> futures = new ArrayList<>();
    futures.add(pool.submit(() -> {
      int n = 0;
      while (!stop.get()) {
        String v = Integer.toString(n++);
        for (int row = 0; row < ROWS; row++) {
          // Four cells in two families, and a delete of a fifth, all carrying the same generation.
          r.mutate(RowMutation.of(of("row" + row)).put(F1, of("a"), of(v)).put(F1, of("b"), of(v))
              .put(F2, of("c"), of(v)).put(F2, of("d"), of(v)).build(), Durability.SKIP_WAL);
        }
      }
      return n;
    }));
    for (int t = 0; t < 2; t++) {
      boolean scan = t == 1;
      futures.add(pool.submit(() -> {
        int checks = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < deadline) {
          if (scan) {
            try (RegionScanner s = r.scan(ScanSpec.all())) {
              for (RowResult row : s.next(ROWS, Long.MAX_VALUE)) {
                assertConsistent(row.cells());
                checks++;
              }
            }
          } else {
            assertConsistent(r.get(of("row" + (checks % ROWS)), ReadOptions.DEFAULT));
            checks++;
          }
        }
        return checks;
      }));
    }
    Thread.sleep(3_200);
    stop.set(true);
    for (Future<Integer> f : futures) {
      assertThat(f.get(30, TimeUnit.SECONDS)).isPositive();
    }
    pool.shutdown();
  }

  private static void assertConsistent(List<Cell> cells) {
    if (cells.isEmpty()) {
      return;
    }
    Set<String> values = new HashSet<>();
    for (Cell c : cells) {
      values.add(new String(c.value()));
    }
    assertThat(cells).hasSize(4);
    assertThat(values).as("one generation per row read").hasSize(1);
  }
}
