package io.basalt.server.bulk;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.mutation.RowMutation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The import's external sort: row order, stable for repeated rows, the same in memory and through spilled runs. */
class SortedRunsTest {
  private static final byte[] A = Bytes.of("a");
  private static final byte[] B = Bytes.of("b");
  @TempDir Path dir;

  private List<String> sort(List<RowMutation> rows, long runBytes) throws Exception {
    List<String> out = new ArrayList<>();
    try (SortedRuns runs = new SortedRuns(List.of(A, B), runBytes, dir)) {
      for (RowMutation m : rows) {
        runs.add(m);
      }
      for (Iterator<RowMutation> it = runs.sorted(); it.hasNext(); ) {
        RowMutation m = it.next();
        out.add(Bytes.toStringBinary(m.row()) + m.cells().toString());
      }
      if (runBytes < 1 << 20) {
        assertThat(runs.spilledBytes()).isPositive();
      }
    }
    try (var left = Files.list(dir)) {
      assertThat(left).as("temporary runs deleted").isEmpty();
    }
    return out;
  }

  @Test
  void sortsByRowKeepingInputOrderOfARowsLinesInMemoryAndThroughRuns() throws Exception {
    Random random = new Random(3);
    List<RowMutation> rows = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      byte[] row = Bytes.of(String.format("r%04d", random.nextInt(5_000)));
      rows.add(RowMutation.of(row).put(i % 2 == 0 ? A : B, Bytes.of("q"), i, Bytes.of("v" + i)).build());
    }
    rows.add(RowMutation.of(new byte[] {(byte) 0xFF}).put(A, new byte[0], 1, new byte[0]).build()); // unsigned order
    List<String> inMemory = sort(rows, 64L << 20);
    List<String> spilled = sort(rows, 64 << 10);
    assertThat(spilled).isEqualTo(inMemory).hasSize(rows.size());
    List<String> expected = new ArrayList<>();
    List<RowMutation> stable = new ArrayList<>(rows);
    stable.sort((x, y) -> Bytes.compare(x.row(), y.row()));
    for (RowMutation m : stable) {
      expected.add(Bytes.toStringBinary(m.row()) + m.cells().toString());
    }
    assertThat(inMemory).isEqualTo(expected);
  }
}
