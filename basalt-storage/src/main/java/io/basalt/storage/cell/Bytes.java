package io.basalt.storage.cell;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Byte-array helpers with HBase's ordering: unsigned lexicographic. */
public final class Bytes {
  public static final byte[] EMPTY = new byte[0];

  private Bytes() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  public static byte[] of(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static byte[] of(long v) {
    byte[] b = new byte[8];
    for (int i = 7; i >= 0; i--) {
      b[i] = (byte) v;
      v >>>= 8;
    }
    return b;
  }

  public static long toLong(byte[] b) {
    if (b.length != 8) {
      throw new IllegalArgumentException("not an 8-byte long: " + b.length + " bytes");
    }
    long v = 0;
    for (byte x : b) {
      v = (v << 8) | (x & 0xFF);
    }
    return v;
  }

  public static byte[] concat(byte[] a, byte[] b) {
    byte[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /** Printable form like HBase's {@code Bytes.toStringBinary}: ASCII kept, the rest as \xNN. */
  public static String toStringBinary(byte[] b) {
    if (b == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder(b.length);
    for (byte x : b) {
      int c = x & 0xFF;
      if (c >= ' ' && c < 0x7F && c != '\\') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02X", c));
      }
    }
    return sb.toString();
  }
}
