package io.basalt.server.bulk;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Lines of a byte stream as Hadoop's TextInputFormat (ImportTsv's input) cuts them: ended by LF, CR or CRLF, the
 * last one possibly unended, a UTF-8 byte order mark at the start dropped; each with the byte offset of its
 * start, which ImportTsv's bad-line messages name.
 */
public final class LineReader implements AutoCloseable {
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private final InputStream in;
  private final byte[] buffer = new byte[1 << 20];
  private int pos;
  private int limit;
  private long bufferOffset;
  private byte[] line = new byte[1024];
  private int lineLength;
  private long lineOffset;
  private boolean first = true;

  public LineReader(InputStream in) {
    this.in = in;
  }

  /** Advances to the next line; false at the end of the stream. */
  public boolean next() throws IOException {
    if (first) {
      first = false;
      fill();
      if (limit - pos >= 3 && Arrays.equals(buffer, 0, 3, BOM, 0, 3)) {
        pos = 3;
      }
    }
    lineLength = 0;
    if (pos == limit && !fill()) {
      return false;
    }
    lineOffset = bufferOffset + pos;
    while (true) {
      int start = pos;
      while (pos < limit && buffer[pos] != '\n' && buffer[pos] != '\r') {
        pos++;
      }
      append(start, pos);
      if (pos < limit) {
        byte end = buffer[pos++];
        if (end == '\r' && (pos < limit || fill()) && buffer[pos] == '\n') {
          pos++;
        }
        return true;
      }
      if (!fill()) {
        return true; // the last line, unended
      }
    }
  }

  /** The current line's bytes are {@code line()[0, length())}; the array is reused by the next line. */
  public byte[] line() {
    return line;
  }

  public int length() {
    return lineLength;
  }

  /** Offset of the current line's first byte in the stream. */
  public long offset() {
    return lineOffset;
  }

  /** Bytes consumed so far, line ends included. */
  public long position() {
    return bufferOffset + pos;
  }

  private void append(int from, int to) {
    int n = to - from;
    if (lineLength + n > line.length) {
      line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + n));
    }
    System.arraycopy(buffer, from, line, lineLength, n);
    lineLength += n;
  }

  /** Refills an exhausted buffer; false at the end of the stream. */
  private boolean fill() throws IOException {
    bufferOffset += limit;
    pos = 0;
    limit = 0;
    int n;
    do {
      n = in.read(buffer, 0, buffer.length);
    } while (n == 0);
    if (n < 0) {
      return false;
    }
    limit = n;
    return true;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
