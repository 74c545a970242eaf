package io.basalt.server.bulk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.mutation.RowMutation;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadBatchTest {
  private static final byte[] CF = Bytes.of("cf");
  private static final byte[] OTHER = Bytes.of("other");

  @Test
  void roundTrips() {
    List<RowMutation> rows = List.of(
        RowMutation.of(Bytes.of("a")).put(CF, Bytes.of("q"), 5, Bytes.of("v")).put(OTHER, new byte[0], 6, new byte[0])
            .build(),
        RowMutation.of(new byte[] {0, (byte) 0xFF}).put(CF, Bytes.of("q2"), Long.MAX_VALUE - 1, new byte[300]).build());
    List<RowMutation> back = LoadBatch.decode(LoadBatch.encode(List.of(CF, OTHER), rows));
    assertThat(back).hasSize(2);
    for (int i = 0; i < rows.size(); i++) {
      assertThat(back.get(i).row()).isEqualTo(rows.get(i).row());
      assertThat(back.get(i).cells()).hasSameSizeAs(rows.get(i).cells());
      for (int c = 0; c < rows.get(i).cells().size(); c++) {
        assertThat(back.get(i).cells().get(c).toString()).isEqualTo(rows.get(i).cells().get(c).toString());
        assertThat(back.get(i).cells().get(c).value()).isEqualTo(rows.get(i).cells().get(c).value());
      }
    }
  }

  @Test
  void damagedOrForeignBatchesAreRefused() {
    byte[] good = LoadBatch.encode(List.of(CF), List.of(RowMutation.of(Bytes.of("a")).put(CF, Bytes.of("q"), 1,
        Bytes.of("v")).build()));
    byte[] flipped = good.clone();
    flipped[flipped.length - 1] ^= 1;
    assertThatThrownBy(() -> LoadBatch.decode(flipped)).hasMessageContaining("checksum");
    byte[] newer = good.clone();
    newer[2] = 2;
    assertThatThrownBy(() -> LoadBatch.decode(newer)).hasMessageContaining("version 2");
    assertThatThrownBy(() -> LoadBatch.decode(Bytes.of("hello"))).hasMessageContaining("not a bulk load batch");
    byte[] cut = java.util.Arrays.copyOf(good, good.length - 3);
    assertThatThrownBy(() -> LoadBatch.decode(cut)).isInstanceOf(IllegalArgumentException.class);
  }
}
