package io.basalt.server.transfer;

import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/** Encoding of the segment transfer frames; the format is documented on {@link SegmentServer}. */
final class SegmentProtocol {
  static final int MAGIC = 0x42534701; // "BSG" + version 1
  static final byte OK = 0;
  static final byte ERROR = 1;
  private static final int MAX_NAME = 255;
  private static final int MAX_MESSAGE = 4096;

  private SegmentProtocol() {}

  /** One request: {@code file} of {@code region} from byte {@code offset} on. Names are not yet validated. */
  record Request(String region, String file, long offset) {}

  static void writeRequest(WritableByteChannel ch, String region, String file, long offset) throws IOException {
    byte[] r = region.getBytes(StandardCharsets.UTF_8);
    byte[] f = file.getBytes(StandardCharsets.UTF_8);
    if (r.length > MAX_NAME || f.length > MAX_NAME) {
      throw new IllegalArgumentException("name too long");
    }
    ByteBuffer b = ByteBuffer.allocate(4 + 2 + r.length + 2 + f.length + 8);
    b.putInt(MAGIC).putShort((short) r.length).put(r).putShort((short) f.length).put(f).putLong(offset).flip();
    writeFully(ch, b);
  }

  /** The next request, or null if the peer closed the connection between requests. */
  static Request readRequest(ReadableByteChannel ch) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(6);
    if (!readFully(ch, head, true)) {
      return null;
    }
    if (head.getInt() != MAGIC) {
      throw new ProtocolException("not a segment transfer request");
    }
    String region = readName(ch, Short.toUnsignedInt(head.getShort()));
    ByteBuffer len = ByteBuffer.allocate(2);
    readFully(ch, len, false);
    String file = readName(ch, Short.toUnsignedInt(len.getShort()));
    ByteBuffer offset = ByteBuffer.allocate(8);
    readFully(ch, offset, false);
    return new Request(region, file, offset.getLong());
  }

  private static String readName(ReadableByteChannel ch, int length) throws IOException {
    if (length > MAX_NAME) {
      throw new ProtocolException("name of " + length + " bytes in a segment request");
    }
    ByteBuffer b = ByteBuffer.allocate(length);
    readFully(ch, b, false);
    return new String(b.array(), StandardCharsets.UTF_8);
  }

  static void writeOk(WritableByteChannel ch, long fileLength) throws IOException {
    writeFully(ch, ByteBuffer.allocate(9).put(OK).putLong(fileLength).flip());
  }

  static void writeError(WritableByteChannel ch, String message) throws IOException {
    byte[] m = message.getBytes(StandardCharsets.UTF_8);
    int n = Math.min(m.length, MAX_MESSAGE);
    writeFully(ch, ByteBuffer.allocate(3 + n).put(ERROR).putShort((short) n).put(m, 0, n).flip());
  }

  /** The file length of an OK reply; an ERROR reply is thrown as {@link SegmentRefusedException}. */
  static long readReply(ReadableByteChannel ch) throws IOException {
    ByteBuffer status = ByteBuffer.allocate(1);
    readFully(ch, status, false);
    switch (status.get()) {
      case OK -> {
        ByteBuffer length = ByteBuffer.allocate(8);
        readFully(ch, length, false);
        return length.getLong();
      }
      case ERROR -> {
        ByteBuffer len = ByteBuffer.allocate(2);
        readFully(ch, len, false);
        int n = Short.toUnsignedInt(len.getShort());
        if (n > MAX_MESSAGE) {
          throw new ProtocolException("error message of " + n + " bytes");
        }
        ByteBuffer m = ByteBuffer.allocate(n);
        readFully(ch, m, false);
        throw new SegmentRefusedException(new String(m.array(), StandardCharsets.UTF_8));
      }
      default -> throw new ProtocolException("not a segment transfer reply");
    }
  }

  /** Fills {@code b} and flips it; false if the stream ended before the first byte and that is allowed. */
  private static boolean readFully(ReadableByteChannel ch, ByteBuffer b, boolean endAllowed) throws IOException {
    while (b.hasRemaining()) {
      if (ch.read(b) < 0) {
        if (endAllowed && b.position() == 0) {
          return false;
        }
        throw new EOFException("segment stream ended in the middle of a frame");
      }
    }
    b.flip();
    return true;
  }

  private static void writeFully(WritableByteChannel ch, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }
}
