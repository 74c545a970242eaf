package io.basalt.storage.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FreePortsTest {
  @AfterEach
  void noFork() {
    System.clearProperty("basalt.test.fork");
  }

  @Test
  void blocksAreDisjointAndBelowTheEphemeralRange() throws Exception {
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      int first = FreePorts.takeBlock(40);
      assertThat(first).isBetween(20_000, 32_767 - 39);
      for (int p = first; p < first + 40; p++) {
        assertThat(seen.add(p)).as("port %d handed out twice", p).isTrue();
      }
    }
    for (int p : FreePorts.take(20)) {
      assertThat(p).isBetween(10_000, 19_999);
      assertThat(seen.add(p)).as("port %d handed out twice", p).isTrue();
    }
  }

  /** Two forks never take the same port: each has its own quarter of both ranges. */
  @Test
  void eachForkTakesFromItsOwnQuarter() throws Exception {
    System.setProperty("basalt.test.fork", "2");
    for (int i = 0; i < 5; i++) {
      assertThat(FreePorts.take(1)[0]).isBetween(12_500, 14_999);
      int first = FreePorts.takeBlock(40);
      assertThat(first).isBetween(23_192, 26_383 - 39);
    }
  }
}
