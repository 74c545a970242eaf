package io.basalt.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PortRangeTest {
  @Test
  void parsesFirstDashLast() {
    PortRange r = ReplicationKeys.PORT_RANGE.parse(" 16500-16999 ");
    assertThat(r).isEqualTo(new PortRange(16500, 16999));
    assertThat(r.size()).isEqualTo(500);
    assertThat(r.contains(16999)).isTrue();
    assertThat(r.contains(17000)).isFalse();
    assertThat(r.toString()).isEqualTo("16500-16999");
  }

  @Test
  void badRangesNameTheKey() {
    for (String bad : new String[] {"16500", "17000-16500", "0-10", "a-b", "1-70000"}) {
      assertThatThrownBy(() -> ReplicationKeys.PORT_RANGE.parse(bad)).isInstanceOf(InvalidConfigException.class)
          .hasMessageContaining("basalt.replication.port.range");
    }
  }
}
