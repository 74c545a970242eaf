package io.basalt.storage.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CellTypeTest {
  @Test
  void everyTypeComesBackFromItsHBaseCode() {
    for (CellType t : CellType.values()) {
      assertThat(CellType.fromCode(t.code())).isSameAs(t);
    }
    assertThat(CellType.PUT.code()).isEqualTo(4); // KeyValue.Type.Put
    assertThat(CellType.DELETE_FAMILY.code()).isEqualTo(14); // KeyValue.Type.DeleteFamily
  }

  @Test
  void anUnknownCodeIsRefused() {
    for (int code : new int[] {0, 5, 13, 255}) {
      assertThatThrownBy(() -> CellType.fromCode(code)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(Integer.toString(code));
    }
  }
}
