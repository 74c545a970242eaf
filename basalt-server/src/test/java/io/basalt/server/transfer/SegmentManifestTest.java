package io.basalt.server.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.transfer.SegmentManifest.Segment;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.segment.ClosedSegmentSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentManifestTest {
  private static final SegmentManifest SAMPLE = new SegmentManifest("1588230740",
      List.of(new Segment(0, 10_485_760), new Segment(3, 10_485_760), new Segment(0x1a, 17), new Segment(0xFFFF_FFFFL, 0)),
      0xFFFF_FFFFL);

  @Test
  void roundTripsThroughItsEncoding() {
    assertThat(SegmentManifest.decode(SAMPLE.encode())).isEqualTo(SAMPLE);
    SegmentManifest empty = new SegmentManifest("d41d8cd98f00b204e9800998ecf8427e", List.of(), -1);
    assertThat(SegmentManifest.decode(empty.encode())).isEqualTo(empty);
    assertThat(SAMPLE.totalBytes()).isEqualTo(2 * 10_485_760L + 17);
    assertThat(SAMPLE.segments().get(2).fileName()).isEqualTo("0000001a.jdb");
    assertThat(SAMPLE.lengthOf("0000001a.jdb")).hasValue(17);
    assertThat(SAMPLE.lengthOf("00000001.jdb")).isEmpty();
  }

  @Test
  void encodingIsCompact() {
    List<Segment> segments = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      segments.add(new Segment(100 + i, 10_485_760 + i));
    }
    byte[] bytes = new SegmentManifest("d41d8cd98f00b204e9800998ecf8427e", segments, 2099).encode();
    assertThat(bytes.length).isLessThan(10_100); // about 5 bytes a segment
    assertThat(SegmentManifest.decode(bytes).segments()).isEqualTo(segments);
  }

  @Test
  void everyCorruptionOrTruncationIsRejected() {
    byte[] good = SAMPLE.encode();
    for (int i = 0; i < good.length; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] bad = good.clone();
        bad[i] ^= (byte) (1 << bit);
        assertThatThrownBy(() -> SegmentManifest.decode(bad)).isInstanceOf(IllegalArgumentException.class);
      }
    }
    for (int n = 0; n < good.length; n++) {
      byte[] shorter = Arrays.copyOf(good, n);
      assertThatThrownBy(() -> SegmentManifest.decode(shorter)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void regionNamesCannotEscapeTheRegionsDirectory() {
    for (String bad : new String[] {"", ".", "..", ".hidden", "a/b", "../x", "a\\b", "r\u00e9gion", "x".repeat(129), "a b"}) {
      assertThat(SegmentManifest.isValidRegionName(bad)).as(bad).isFalse();
      assertThatThrownBy(() -> new SegmentManifest(bad, List.of(), -1)).isInstanceOf(IllegalArgumentException.class);
    }
    for (String good : new String[] {"1588230740", "d41d8cd98f00b204e9800998ecf8427e", "t1,,1.x_y-z".replace(",", "")}) {
      assertThat(SegmentManifest.isValidRegionName(good)).as(good).isTrue();
    }
  }

  @Test
  void rejectsInconsistentContents() {
    assertThatThrownBy(() -> new SegmentManifest("r", List.of(new Segment(2, 1), new Segment(2, 1)), 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascending");
    assertThatThrownBy(() -> new SegmentManifest("r", List.of(new Segment(3, 1)), 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("newer");
    assertThatThrownBy(() -> new Segment(1, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Segment(0x1_0000_0000L, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void describesASegmentSetWithItsFileLengths(@TempDir Path dir) throws IOException {
    Files.write(dir.resolve("00000000.jdb"), new byte[100]);
    Files.write(dir.resolve("00000002.jdb"), new byte[7]);
    Files.write(dir.resolve("je.lck"), new byte[1]);
    try (ClosedSegmentSet set = ClosedSegmentSet.list(LocalStorageFiles.INSTANCE, dir, () -> {})) {
      assertThat(SegmentManifest.of("r1", set))
          .isEqualTo(new SegmentManifest("r1", List.of(new Segment(0, 100), new Segment(2, 7)), 2));
    }
  }
}
