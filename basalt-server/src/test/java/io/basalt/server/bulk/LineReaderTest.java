package io.basalt.server.bulk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines as Hadoop's TextInputFormat cuts them, whatever the read sizes. */
class LineReaderTest {
  private static List<String> lines(byte[] input, int readSize) throws IOException {
    InputStream in = new ByteArrayInputStream(input) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, readSize)); // short reads split lines and CRLFs
      }
    };
    List<String> out = new ArrayList<>();
    try (LineReader r = new LineReader(in)) {
      while (r.next()) {
        out.add(r.offset() + ":" + new String(r.line(), 0, r.length(), StandardCharsets.UTF_8));
      }
      assertThat(r.position()).isEqualTo(input.length);
    }
    return out;
  }

  @Test
  void lfCrAndCrlfEndLinesAndTheLastMayBeUnended() throws IOException {
    byte[] input = "a\tb\nc\r\nd\re\n\nf".getBytes(StandardCharsets.UTF_8);
    for (int readSize : new int[] {1, 2, 3, 1 << 20}) {
      assertThat(lines(input, readSize)).as("reads of %d", readSize)
          .containsExactly("0:a\tb", "4:c", "7:d", "9:e", "11:", "12:f");
    }
  }

  @Test
  void aFinalLineEndAddsNoEmptyLineAndAByteOrderMarkIsDropped() throws IOException {
    assertThat(lines("x\n".getBytes(StandardCharsets.UTF_8), 7)).containsExactly("0:x");
    assertThat(lines(new byte[0], 7)).isEmpty();
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'k', '\t', 'v'};
    assertThat(lines(bom, 1 << 20)).containsExactly("3:k\tv");
  }

  @Test
  void longLinesGrowTheBuffer() throws IOException {
    String longLine = "r\t" + "v".repeat(3_000_000);
    assertThat(lines((longLine + "\nnext").getBytes(StandardCharsets.UTF_8), 1 << 16))
        .containsExactly("0:" + longLine, (longLine.length() + 1) + ":next");
  }
}
